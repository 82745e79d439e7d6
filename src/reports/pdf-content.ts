/**
 * A page's drawing operators, gathered as bytes and written to the page once,
 * when the document is finished. pdfkit turns every operator it is given
 * (a rectangle, a colour, a line of text) into its own array of bytes, one
 * character at a time, and joins the arrays when the page ends; a report
 * page has thousands of operators. Here each operator is copied into its
 * page's one growing buffer as it is drawn, the same bytes in the same
 * order, and its text is garbage at once: kept as text until the page is
 * written, thousands of strings would be copied by every young-generation
 * collection and then promoted.
 */

interface Page {
  write(chunk: Uint8Array): void;
}

interface Document {
  page: Page;
  addContent(data: string): Document;
}

/** One page's operators so far, each followed by the newline pdfkit ends it with. */
class PageBytes {
  private bytes = Buffer.allocUnsafe(32 * 1024);
  private length = 0;

  add(operators: string): void {
    // Operators are ASCII text: one byte a character, as latin1 gives pdfkit's bytes.
    const needed = this.length + operators.length + 1;
    if (needed > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.length += this.bytes.write(operators, this.length, 'latin1');
    this.bytes[this.length++] = 0x0a;
  }

  written(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/**
 * Makes `doc` gather its pages' operators; the function returned writes
 * them to their pages and must run before doc.end(). Every operator pdfkit
 * draws goes through addContent, so the order within a page is kept.
 */
export function gatherContent(doc: PDFKit.PDFDocument): () => void {
  const d = doc as unknown as Document;
  const pages = new Map<Page, PageBytes>();
  d.addContent = function (this: Document, data: string): Document {
    let bytes = pages.get(this.page);
    if (!bytes) pages.set(this.page, (bytes = new PageBytes()));
    bytes.add(data);
    return this;
  };
  return () => {
    for (const [page, bytes] of pages) page.write(bytes.written());
    pages.clear();
  };
}

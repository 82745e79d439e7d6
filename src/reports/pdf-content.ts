/**
 * A page's drawing operators, gathered as text and written to the page once,
 * when the document is finished. pdfkit turns every operator it is given
 * (a rectangle, a colour, a line of text) into its own array of bytes, one
 * character at a time, and joins the arrays when the page ends; a report
 * page has thousands of operators. Gathered here, each page's operators
 * become one array, the same bytes in the same order.
 */

interface Page {
  write(chunk: Uint8Array): void;
}

interface Document {
  page: Page;
  addContent(data: string): Document;
}

/**
 * Makes `doc` gather its pages' operators; the function returned writes
 * them to their pages and must run before doc.end(). Every operator pdfkit
 * draws goes through addContent, so the order within a page is kept.
 */
export function gatherContent(doc: PDFKit.PDFDocument): () => void {
  const d = doc as unknown as Document;
  const pages = new Map<Page, string[]>();
  d.addContent = function (this: Document, data: string): Document {
    let parts = pages.get(this.page);
    if (!parts) pages.set(this.page, (parts = []));
    parts.push(data);
    return this;
  };
  return () => {
    // pdfkit ends every operator with a newline; operators are ASCII text, so latin1 gives pdfkit's bytes.
    for (const [page, parts] of pages) page.write(Buffer.from(`${parts.join('\n')}\n`, 'latin1'));
    pages.clear();
  };
}

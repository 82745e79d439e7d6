import type { Columns } from '../db/rows.js';
import { queryFile } from '../db/script.js';
import type { Store } from '../db/store.js';
import { readEmbeddedFiles } from './pdf-attachment.js';
import { describeFigure, figureKeys, refKeys } from './report-figure-names.js';
import {
  buildProvenance,
  contentHash,
  parseProvenance,
  reportFigureValues,
  type FigureValue,
  type ReportProvenance,
  type TransactionRef,
} from './report-provenance.js';
import { buildReportWithTransactions } from './report-service.js';
import { reportSigningKey, signatureState, type SignatureState } from './report-signature.js';

/**
 * `afford report verify` and POST /v1/affordability/report/verify: reads the
 * provenance a report PDF carries, recomputes the same report from the store
 * and says whether it still matches; if not, which figures changed (from
 * what, to what) and which transactions changed them: a later version, a
 * deletion, or one that was not there before.
 */

/** The largest PDF taken to verify: a year of a busy customer with every flag raised is a few hundred KB. */
export const MAX_REPORT_PDF_BYTES = 8 * 1024 * 1024;

export type TransactionChange = 'later_version' | 'deleted' | 'added' | 'left_the_report';

export interface ChangedTransaction {
  transaction_id: string;
  change: TransactionChange;
  /** The version the report counted ('occurred_at event_id'), null when it did not count it. */
  was_version: string | null;
  /** The version in the store now, null when there is none. */
  now_version: string | null;
  detail: string;
}

export interface ChangedFigure {
  figure: string;
  label: string;
  was: FigureValue;
  now: FigureValue;
  /** The changed transactions that count towards this figure, before or now. */
  transactions: string[];
}

export interface VerifyResult {
  matches: boolean;
  content_hash: string;
  recomputed_hash: string | null;
  /** False when the figures or transactions in the PDF no longer give the hash it carries: its embedded data was changed. */
  intact: boolean;
  /**
   * Whether the file is byte for byte as afford made it (report-signature.ts): 'holds'; 'broken' when it was
   * changed since, or signed by another store; 'none' when it carries no signature.
   */
  signature: SignatureState;
  customer_id: string;
  client_id: string;
  month_from: string;
  month_to: string;
  currency: string;
  generated_at: string;
  customer_exists: boolean;
  changed_figures: ChangedFigure[];
  changed_transactions: ChangedTransaction[];
}

/**
 * The provenance a PDF carries; undefined when it carries none (not an afford
 * report, or saved again by another program); `refused`, with the reason,
 * when what it carries could not come from afford (parseProvenance).
 */
export function provenanceOf(pdf: Buffer): ReportProvenance | { refused: string } | undefined {
  for (const text of readEmbeddedFiles(pdf)) {
    const found = parseProvenance(text);
    if (found) return found;
  }
  return undefined;
}

export const isRefused = (found: ReportProvenance | { refused: string }): found is { refused: string } => 'refused' in found;

/** Changed transactions listed against one changed figure, at most: changed_transactions lists them all. */
export const MAX_TRANSACTIONS_PER_FIGURE = 100;

/**
 * The changed transactions behind each figure path, found through an index
 * rather than by trying every change against every figure (a made-up
 * provenance of thousands of each took tens of seconds): each change is
 * filed under every key its versions can move (refKeys), and a figure looks
 * up its own keys (figureKeys). Ids come in transaction_id order, as the
 * changes do, at most MAX_TRANSACTIONS_PER_FIGURE.
 */
function changesBehind(changes: ReadonlyArray<{ transaction_id: string; refs: TransactionRef[] }>): (path: string) => string[] {
  const byKey = new Map<string, number[]>();
  changes.forEach((c, i) => {
    for (const key of new Set(c.refs.flatMap(refKeys))) {
      const list = byKey.get(key);
      if (list) list.push(i);
      else byKey.set(key, [i]);
    }
  });
  return (path) => {
    const lists = figureKeys(path).map((k) => byKey.get(k) ?? []);
    const picked = new Set<number>();
    const at = lists.map(() => 0);
    // Merged in order: each list is in the changes' order.
    while (picked.size < MAX_TRANSACTIONS_PER_FIGURE) {
      let next = -1;
      lists.forEach((list, l) => {
        const v = list[at[l] as number];
        if (v !== undefined && (next < 0 || v < (lists[next]?.[at[next] as number] ?? Infinity))) next = l;
      });
      if (next < 0) break;
      picked.add((lists[next] as number[])[(at[next] as number)++] as number);
    }
    return [...picked].sort((a, b) => a - b).map((i) => (changes[i] as { transaction_id: string }).transaction_id);
  };
}

interface StateRow {
  transaction_id: string;
  occurred_at: string | null;
  event_id: string | null;
  status: string | null;
  currency: string | null;
  deleted_at: string | null;
  deleted_by: string | null;
}
const STATE_COLUMNS: Columns<StateRow> = {
  transaction_id: 'text', occurred_at: 'text', event_id: 'text', status: 'text', currency: 'text', deleted_at: 'text', deleted_by: 'text',
};

const versionOf = (ref: TransactionRef): string => `${ref[1]} ${ref[2]}`;

function describeRef(ref: TransactionRef): string {
  return `${ref[6]} in ${ref[5]}${ref[3] ? `, ${ref[3]}${ref[4] ? `/${ref[4]}` : ''}` : ', in no figure'}`;
}

async function transactionChanges(store: Store, p: ReportProvenance, now: TransactionRef[]): Promise<Array<ChangedTransaction & { refs: TransactionRef[] }>> {
  const before = new Map(p.transactions.map((r) => [r[0], r]));
  const after = new Map(now.map((r) => [r[0], r]));
  const gone = [...before.keys()].filter((id) => !after.has(id));
  const states = gone.length
    ? await store.read((conn) => queryFile<StateRow>(conn, 'queries/reports/transaction-state', {
      client_id: p.request.client_id, customer_id: p.request.customer_id, ids: JSON.stringify(gone),
    }, STATE_COLUMNS))
    : [];
  const stateOf = new Map(states.map((s) => [s.transaction_id, s]));
  const changes: Array<ChangedTransaction & { refs: TransactionRef[] }> = [];
  for (const [id, old] of before) {
    const fresh = after.get(id);
    if (fresh) {
      if (versionOf(fresh) !== versionOf(old)) {
        changes.push({ transaction_id: id, change: 'later_version', was_version: versionOf(old), now_version: versionOf(fresh),
          detail: `a later version: was ${describeRef(old)}; now ${describeRef(fresh)}`, refs: [old, fresh] });
      }
      continue;
    }
    const state = stateOf.get(id);
    if (state?.deleted_at && !state.occurred_at) {
      changes.push({ transaction_id: id, change: 'deleted', was_version: versionOf(old), now_version: null,
        detail: `deleted (event ${state.deleted_by} of ${state.deleted_at}); was ${describeRef(old)}`, refs: [old] });
    } else if (state?.occurred_at) {
      const version = `${state.occurred_at} ${state.event_id}`;
      const why = state.status === 'declined' ? 'now declined' : state.currency !== p.request.currency ? `now in ${state.currency}` : 'now outside the period or accounts';
      changes.push({ transaction_id: id, change: version === versionOf(old) ? 'left_the_report' : 'later_version', was_version: versionOf(old), now_version: version,
        detail: `${version === versionOf(old) ? 'no longer in this report' : 'a later version'}: ${why}; was ${describeRef(old)}`, refs: [old] });
    } else {
      changes.push({ transaction_id: id, change: 'deleted', was_version: versionOf(old), now_version: null,
        detail: `no longer in the store; was ${describeRef(old)}`, refs: [old] });
    }
  }
  for (const [id, fresh] of after) {
    if (before.has(id)) continue;
    changes.push({ transaction_id: id, change: 'added', was_version: null, now_version: versionOf(fresh),
      detail: `not in the report when it was made: ${describeRef(fresh)}`, refs: [fresh] });
  }
  return changes.sort((a, b) => a.transaction_id.localeCompare(b.transaction_id));
}

/** A report PDF checked: its provenance against the store, and its signature. */
export async function verifyPdf(store: Store, pdf: Buffer, p: ReportProvenance): Promise<VerifyResult> {
  const [result, key] = await Promise.all([verifyProvenance(store, p), reportSigningKey(store)]);
  return { ...result, signature: signatureState(pdf, key) };
}

/** Recomputes the report a provenance describes and compares. */
export async function verifyProvenance(store: Store, p: ReportProvenance): Promise<Omit<VerifyResult, 'signature'>> {
  const r = p.request;
  const base = {
    content_hash: p.content_hash,
    intact: contentHash(p.request, JSON.stringify(p.data), JSON.stringify(p.transactions)) === p.content_hash,
    customer_id: r.customer_id, client_id: r.client_id, month_from: r.month_from, month_to: r.month_to, currency: r.currency,
    generated_at: p.generated_at,
  };
  const built = await buildReportWithTransactions(store, {
    clientId: r.client_id, customerId: r.customer_id, range: { from: r.month_from, to: r.month_to },
    accountIds: r.account_ids ?? undefined, currency: r.currency,
  });
  const nowFigures: Record<string, FigureValue> = built ? reportFigureValues(built.report, built.insights) : {};
  const nowRefs: TransactionRef[] = built ? (JSON.parse(built.transactions) as TransactionRef[]) : [];
  const recomputed = built ? buildProvenance(built.report, built.transactions, built.insights).hash : null;
  if (recomputed === p.content_hash && base.intact) {
    return { ...base, matches: true, recomputed_hash: recomputed, customer_exists: true, changed_figures: [], changed_transactions: [] };
  }
  const changes = await transactionChanges(store, p, nowRefs);
  const behind = changesBehind(changes);
  const paths = [...new Set([...Object.keys(p.figures), ...Object.keys(nowFigures)])];
  const changed_figures: ChangedFigure[] = paths
    .filter((path) => (p.figures[path] ?? null) !== (nowFigures[path] ?? null))
    .map((path) => ({
      figure: path,
      label: describeFigure(path),
      was: p.figures[path] ?? null,
      now: nowFigures[path] ?? null,
      transactions: behind(path),
    }));
  return {
    ...base,
    matches: false,
    recomputed_hash: recomputed,
    customer_exists: built !== null,
    changed_figures,
    changed_transactions: changes.map(({ refs: _refs, ...c }) => c),
  };
}

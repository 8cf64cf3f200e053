import { BATCH_TEMPLATES, csvRow, paths, type BatchKind } from '@tay/contract';
import type { WriteArea } from '../../lib/write-access';

/**
 * One bulk flow of the portal: its kind of batch and the four pages of its routes (the list,
 * upload, map, review). The batch pages are shared by every flow (ADR 032); each flow only names
 * its words and routes.
 */
export interface BatchFlow {
  kind: BatchKind;
  title: string;
  /** What one valid row becomes ("request to pay"), and many ("requests to pay"). */
  madeOne: string;
  made: string;
  writeArea: WriteArea;
  paths: { list: string; upload: string; map: string; review: string };
  /** Where what a batch made is listed, filtered to it. */
  resultsHref: (batchId: string) => string;
}

export const REQUEST_BATCH_FLOW: BatchFlow = {
  kind: 'requests',
  title: 'Bulk Request to Pay',
  madeOne: 'request to pay',
  made: 'requests to pay',
  writeArea: 'requests',
  paths: {
    list: paths.payments.bulkRtp,
    upload: paths.payments.requestImport,
    map: paths.payments.bulkImport,
    review: paths.payments.bulkReview,
  },
  resultsHref: (batchId) => `${paths.payments.history}?batchId=${encodeURIComponent(batchId)}`,
};

/** The kind's template (header and example rows) as a CSV file the browser saves. */
export function downloadTemplate(kind: BatchKind): void {
  const template = BATCH_TEMPLATES[kind];
  const text = `${template.rows.map((row) => csvRow(row)).join('\r\n')}\r\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = template.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "1 request to pay", "2,000 requests to pay". */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

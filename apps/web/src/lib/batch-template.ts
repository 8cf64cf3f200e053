import { BATCH_TEMPLATES, csvRow, type BatchKind } from '@tay/contract';
import { saveFile } from './download';

/**
 * A batch kind's CSV template (its header and example rows), saved by the browser. Apart from
 * `download.ts`, which every page's exports use, as the templates live beside the batches' schemas.
 */
export function downloadBatchTemplate(kind: BatchKind): void {
  const template = BATCH_TEMPLATES[kind];
  saveFile(new Blob([`${template.rows.map((row) => csvRow(row)).join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }), template.fileName);
}

import { MAX_EVIDENCE_FILE_BYTES, type EvidenceFileType } from '@tay/contract';
import { AppError } from '../../lib/app-error';

export interface EvidenceFile {
  name: string;
  contentType: EvidenceFileType;
  bytes: Buffer;
}

/** What a file's first bytes say it is: a PDF, a PNG or a JPEG, whatever its name or data URL claim. */
export function sniffEvidenceType(bytes: Buffer): EvidenceFileType | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

// Rounded up, so a file one byte over the limit does not read as "5.0 MB".
const megabytes = (bytes: number) => `${(Math.ceil((bytes * 10) / (1024 * 1024)) / 10).toFixed(1)} MB`;

/**
 * One evidence file of a dispute's answer (ADR 051), from a base64 data URL: its type is read from
 * its bytes (a PDF, PNG or JPEG), and it is at most 5 MB. A refusal names the file by its place
 * and name, under `files.<n>`.
 */
export function parseEvidenceFile(file: { name: string; dataUrl: string }, index: number): EvidenceFile {
  const field = `files.${index}`;
  const named = `File ${index + 1} (${file.name})`;
  const refuse = (message: string) => AppError.validation(message, { [field]: message });
  const match = /^data:([^;,]*)(?:;[^;,]*)*;base64,([A-Za-z0-9+/=\s]*)$/.exec(file.dataUrl);
  if (!match) throw refuse(`${named} is not a base64 data URL.`);
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0) throw refuse(`${named} is empty.`);
  if (bytes.length > MAX_EVIDENCE_FILE_BYTES) throw refuse(`${named} is ${megabytes(bytes.length)}; the largest accepted is 5 MB.`);
  const contentType = sniffEvidenceType(bytes);
  if (!contentType) throw refuse(`${named} is not a PDF, PNG or JPEG file: only those are accepted.`);
  return { name: file.name, contentType, bytes };
}

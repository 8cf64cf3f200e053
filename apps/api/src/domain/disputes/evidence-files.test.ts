import { describe, expect, it } from 'vitest';
import { type AppError } from '../../lib/app-error';
import { parseEvidenceFile, sniffEvidenceType } from './evidence-files';

const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

function refusal(file: { name: string; dataUrl: string }, index = 0): AppError {
  try {
    parseEvidenceFile(file, index);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('accepted');
}

describe('evidence files', () => {
  it('reads the type from the bytes, not from the data URL', () => {
    expect(sniffEvidenceType(PDF)).toBe('application/pdf');
    expect(sniffEvidenceType(PNG)).toBe('image/png');
    expect(sniffEvidenceType(JPEG)).toBe('image/jpeg');
    expect(parseEvidenceFile({ name: 'receipt.pdf', dataUrl: dataUrl('application/octet-stream', PDF) }, 0).contentType).toBe('application/pdf');
  });

  it('refuses other files, naming the file and its place', () => {
    const gif = refusal({ name: 'photo.gif', dataUrl: dataUrl('image/gif', Buffer.from('GIF89a')) }, 2);
    expect(gif.message).toBe('File 3 (photo.gif) is not a PDF, PNG or JPEG file: only those are accepted.');
    expect(gif.fields).toEqual({ 'files.2': gif.message });
    expect(refusal({ name: 'x.pdf', dataUrl: 'https://example.com/x.pdf' }).message).toBe('File 1 (x.pdf) is not a base64 data URL.');
  });

  it('takes 5 MB and refuses a byte more', () => {
    const limit = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length)]);
    expect(parseEvidenceFile({ name: 'big.pdf', dataUrl: dataUrl('application/pdf', limit) }, 0).bytes.length).toBe(5 * 1024 * 1024);
    const over = refusal({ name: 'big.pdf', dataUrl: dataUrl('application/pdf', Buffer.concat([limit, Buffer.alloc(1)])) });
    expect(over.message).toBe('File 1 (big.pdf) is 5.1 MB; the largest accepted is 5 MB.');
  });
});

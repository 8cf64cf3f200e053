import { ErrorCode, LOGO_CONTENT_TYPES, MAX_LOGO_BYTES, type LogoContentType } from '@tay/contract';
import { AppError } from '../../lib/app-error';

export interface LogoImage {
  contentType: LogoContentType;
  bytes: Buffer;
}

const KIND: Record<LogoContentType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/svg+xml': 'SVG',
};
const ACCEPTED = 'Upload a PNG, JPEG, WebP or SVG image.';

function refuse(message: string, code: string = ErrorCode.ValidationFailed): never {
  throw new AppError(code, message, { dataUrl: message });
}

/** What the bytes are, by their signature; the declared type is never trusted on its own. */
export function sniffImageType(bytes: Buffer): LogoContentType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  // An SVG document: optional XML declaration, comments and doctype, then the <svg> root.
  if (/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)*<svg[\s>/]/i.test(head)) return 'image/svg+xml';
  return null;
}

/** Numeric character references decoded, so `&#106;avascript:` reads as what a browser would see. */
function decodeCharacterReferences(text: string): string {
  return text.replace(/&#(x[0-9a-f]+|\d+);?/gi, (_match, ref: string) => {
    const code = ref[0] === 'x' || ref[0] === 'X' ? parseInt(ref.slice(1), 16) : parseInt(ref, 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * Why an SVG logo is refused, or null when it is acceptable. A logo is a picture: no scripts,
 * no event handlers, no script URLs, no embedded HTML and no entity declarations (which can
 * expand without bound). The logo is also served with a CSP that forbids scripts; this is the
 * first line, which keeps such files out of the database.
 */
export function svgProblem(svg: string): string | null {
  const text = decodeCharacterReferences(svg);
  if (/<!ENTITY/i.test(text)) return 'SVG files with entity declarations are not accepted; export the logo again as a plain SVG.';
  if (/<\s*([\w.-]+:)?script[\s>/]/i.test(text)) return 'SVG files that contain scripts are not accepted; export the logo again without scripts.';
  const handler = /(?:^|[\s"'/])(on[a-z]+)\s*=/i.exec(text);
  if (handler) return `SVG files with event handlers (${handler[1]}) are not accepted; export the logo again without them.`;
  if (/(?:java|vb)script\s*:/i.test(text.replace(/[\t\n\r]/g, ''))) return 'SVG files with script links are not accepted; export the logo again without them.';
  if (/<\s*([\w.-]+:)?foreignObject[\s>/]/i.test(text)) return 'SVG files with embedded HTML are not accepted; export the logo again as a plain SVG.';
  return null;
}

/**
 * A logo upload: a base64 data URL of a PNG, JPEG, WebP or SVG image of at most 512 KB, whose
 * bytes are what it claims to be.
 */
export function parseLogoDataUrl(dataUrl: string): LogoImage {
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[^;,]*)*)(;base64)?,(.*)$/is.exec(dataUrl.trim());
  if (!match) refuse(`Send the logo as a data URL, like data:image/png;base64,… ${ACCEPTED}`);
  const declared = match[1]!.toLowerCase().replace('image/jpg', 'image/jpeg');
  if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(declared)) refuse(`This file type (${declared}) is not accepted. ${ACCEPTED}`);
  const contentType = declared as LogoContentType;
  if (!match[3]) refuse('Send the image base64-encoded, like data:image/png;base64,…');
  const data = match[4]!.replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 === 1) refuse('The image data is not valid base64.');
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length === 0) refuse('The image is empty.');
  if (bytes.length > MAX_LOGO_BYTES) {
    refuse(
      `The logo is ${Math.ceil(bytes.length / 1024)} KB; the largest accepted is ${MAX_LOGO_BYTES / 1024} KB. Upload a smaller image.`,
      ErrorCode.PayloadTooLarge,
    );
  }
  const actual = sniffImageType(bytes);
  if (actual !== contentType) {
    refuse(`This file is not a valid ${KIND[contentType]} image${actual ? ` (it is a ${KIND[actual]})` : ''}. ${ACCEPTED}`);
  }
  if (contentType === 'image/svg+xml') {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      refuse('The SVG file is not UTF-8 text.');
    }
    const problem = svgProblem(text);
    if (problem) refuse(problem);
  }
  return { contentType, bytes };
}

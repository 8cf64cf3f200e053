import type { PDFDocument, PDFImage } from 'pdf-lib';

/**
 * A business's logo embedded in a PDF (invoices, QR posters), or null when it is not a PNG or JPEG
 * pdf-lib can read: a document never fails for its logo.
 */
export async function embedLogo(doc: PDFDocument, logo: { bytes: Uint8Array; contentType: string } | null): Promise<PDFImage | null> {
  if (!logo || logo.bytes.length === 0) return null;
  // By the bytes' signature, whatever the declared type says.
  const bytes = logo.bytes;
  const png = bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const jpeg = bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!png && !jpeg) return null;
  try {
    const image = png ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    // Embed now, so a broken image fails here and not when the document is saved.
    await image.embed();
    return image.width > 0 && image.height > 0 ? image : null;
  } catch {
    return null;
  }
}

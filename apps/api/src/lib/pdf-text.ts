import type { PDFFont } from 'pdf-lib';

/**
 * Text for the PDFs the API draws with pdf-lib's standard fonts (receipts, invoices). Those fonts
 * cover Western European text only (WinAnsi) and pdf-lib throws on any other character, so every
 * string goes through these helpers, which print such a character as "?" rather than failing the
 * whole document.
 */

const characterSets = new WeakMap<PDFFont, ReadonlySet<number>>();

function characterSet(font: PDFFont): ReadonlySet<number> {
  let set = characterSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(font, set);
  }
  return set;
}

/**
 * `text` as `font` can draw it on one line: tabs and line breaks as one space, and every character
 * the font does not have as "?" ("e" + combining accent is composed to "é" first).
 */
export function printable(font: PDFFont, text: string): string {
  const set = characterSet(font);
  return Array.from(text.normalize('NFC').replace(/[\r\n\t]+/g, ' '), (ch) => (set.has(ch.codePointAt(0)!) ? ch : '?')).join('');
}

/** `text` on one line no wider than `width`, cut with "..." when it is longer. */
export function fitText(font: PDFFont, text: string, size: number, width: number): string {
  let line = printable(font, text);
  if (font.widthOfTextAtSize(line, size) <= width) return line;
  while (line.length > 1 && font.widthOfTextAtSize(`${line}...`, size) > width) line = line.slice(0, -1);
  return `${line}...`;
}

/**
 * `text` in lines no wider than `width`, broken between words; a word longer than a whole line
 * (a URL, a reference) is broken wherever it has to be. A line break in `text` starts a new line
 * and blank lines are kept, but not trailing ones. Empty text is one empty line.
 */
export function wrapText(font: PDFFont, text: string, size: number, width: number): string[] {
  const fits = (value: string) => font.widthOfTextAtSize(value, size) <= width;
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (let word of printable(font, paragraph).split(' ').filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (fits(next)) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      // After printable() every character is a single UTF-16 unit, so slicing is safe.
      while (!fits(word) && word.length > 1) {
        let cut = 1;
        while (cut + 1 < word.length && fits(word.slice(0, cut + 1))) cut += 1;
        lines.push(word.slice(0, cut));
        word = word.slice(cut);
      }
      line = word;
    }
    lines.push(line);
  }
  while (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

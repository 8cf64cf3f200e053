// The payer's entry imports Mantine's styles one component at a time (apps/web/src/app/payer-styles.css):
// this finds the components in the scripts the entry can load (pay.html's and every chunk they
// import, at once or on demand) whose styles file is not imported there. A component drawn
// without its styles would look broken to a payer; `npm run bench -- bundle` fails on it.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = `${root}apps/web/dist`;
const stylesDir = `${root}node_modules/@mantine/core/styles`;
const payerStyles = `${root}apps/web/src/app/payer-styles.css`;

/** Every script the payer's entry can load, by walking the chunks' imports from `pay.html`. */
function payerScripts() {
  const html = readFileSync(`${dist}/pay.html`, 'utf8');
  const queue = [...html.matchAll(/\/assets\/([^"]+\.js)/g)].map((m) => m[1]);
  const seen = new Set();
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(`${dist}/assets/${file}`, 'utf8');
    for (const m of text.matchAll(/["`]\.\/([\w.-]+\.js)["`]|assets\/([\w.-]+\.js)/g)) queue.push(m[1] ?? m[2]);
  }
  return [...seen];
}

/** Mantine components in the payer's scripts whose styles `payer-styles.css` does not import. */
export function missingPayerStyles() {
  const imported = new Set([...readFileSync(payerStyles, 'utf8').matchAll(/@mantine\/core\/styles\/(\w+)\.css/g)].map((m) => m[1]));
  const used = new Set();
  for (const file of payerScripts()) {
    for (const m of readFileSync(`${dist}/assets/${file}`, 'utf8').matchAll(/@mantine\/core\/(\w+)/g)) used.add(m[1]);
  }
  return [...used].filter((name) => existsSync(`${stylesDir}/${name}.css`) && !imported.has(name)).sort();
}

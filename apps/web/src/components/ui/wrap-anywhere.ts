import type { CSSProperties } from 'react';

/**
 * For text a person typed (a memo with a long link, a long surname, an e-mail address): it breaks
 * anywhere when a line cannot hold it, rather than pushing a 390 px phone's page sideways. `anywhere`
 * rather than `break-word` because only `anywhere` lets a table cell or a flex item shrink below the
 * longest word. Spread it into a `style` beside anything else the text needs
 * (`{ ...wrapAnywhere, whiteSpace: 'pre-line' }` for a memo that keeps its line breaks).
 */
export const wrapAnywhere: Readonly<CSSProperties> = { overflowWrap: 'anywhere' };

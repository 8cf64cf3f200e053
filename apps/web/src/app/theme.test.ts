import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const shade = (color: string, index: number) => merged.colors[color]![index]!;
/** The colour a `var(--mantine-color-<name>-<shade>)` stands for. */
const resolve = (value: string | undefined) => {
  const match = value?.match(/^var\(--mantine-color-([a-z]+)-(\d)\)$/);
  if (!match) throw new Error(`not a palette colour: ${value}`);
  return shade(match[1]!, Number(match[2]));
};
const WHITE = '#ffffff';
const AA = 4.5;

describe('the theme meets WCAG AA contrast for text', () => {
  it('white on the primary colour, and the primary colour (links) on white', () => {
    const primary = shade(merged.primaryColor, typeof merged.primaryShade === 'number' ? merged.primaryShade : merged.primaryShade.light);
    expect(contrast(WHITE, primary)).toBeGreaterThanOrEqual(AA);
  });

  it('dimmed text (gray 6) on white and on the greys of striped rows and panels', () => {
    for (const background of [WHITE, shade('gray', 0), shade('gray', 1)]) {
      expect(contrast(shade('gray', 6), background), background).toBeGreaterThanOrEqual(AA);
    }
  });

  it.each(['blue', 'red', 'orange', 'yellow', 'lime', 'green', 'teal', 'cyan', 'indigo', 'gray', 'dark'])(
    '%s: white on the filled colour, coloured text on white and light badges and alerts',
    (color) => {
      const filled = shade(color, 8);
      expect(contrast(WHITE, filled)).toBeGreaterThanOrEqual(AA);
      expect(contrast(filled, shade('gray', 0))).toBeGreaterThanOrEqual(AA);
      expect(contrast(shade(color, 9), shade(color, 1))).toBeGreaterThanOrEqual(AA);
    },
  );

  it('red (danger buttons and menu items) on the light colour of any panel', () => {
    for (const panel of ['blue', 'teal', 'orange', 'gray', 'yellow', 'red', 'cyan', 'indigo', 'lime', 'green']) {
      expect(contrast(shade('red', 8), shade(panel, 1)), panel).toBeGreaterThanOrEqual(AA);
    }
  });

  it('links, on white and on the light colours of alerts', () => {
    const anchor = resolve(cssVariablesResolver(merged).light['--mantine-color-anchor']);
    for (const background of [WHITE, shade('gray', 0), shade('blue', 1), shade('yellow', 1), shade('teal', 1), shade('red', 1), shade('orange', 1)]) {
      expect(contrast(anchor, background), background).toBeGreaterThanOrEqual(AA);
    }
  });

  it('error messages and placeholders', () => {
    const light = cssVariablesResolver(merged).light;
    expect(contrast(resolve(light['--mantine-color-error']), WHITE)).toBeGreaterThanOrEqual(AA);
    expect(contrast(resolve(light['--mantine-color-placeholder']), WHITE)).toBeGreaterThanOrEqual(AA);
  });
});

import { colorsTuple, createTheme, DEFAULT_THEME, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/**
 * Mantine's palettes with their darkest shades darkened where its defaults fail WCAG AA (4.5:1
 * for text): shade 8 is the filled colour under white text and the colour of coloured text
 * (`c="red"`, menu items, errors), shade 9 the text of light badges and alerts on shade 1. Only
 * those shades change, so backgrounds and borders look as before.
 */
const palette = (name: string, shades: Record<number, string>): MantineColorsTuple =>
  colorsTuple(DEFAULT_THEME.colors[name]!.map((color, shade) => shades[shade] ?? color));

/** Dimmed text: 5.7:1 on white, at least 4.8:1 on the light greys of stripes and panels. */
const DIMMED = '#5f676f';

export const theme = createTheme({
  primaryColor: 'blue',
  // Blue 6 (Mantine's default) gives white text only 3.6:1; blue 8 gives 5:1, and links on white too.
  primaryShade: 8,
  colors: {
    gray: palette('gray', { 6: DIMMED }),
    // Red darker still: danger buttons stand on the light colour of the panel they are in.
    red: palette('red', { 8: '#bd2626', 9: '#a51d1d' }),
    orange: palette('orange', { 8: '#c34b0a', 9: '#b63c0d' }),
    yellow: palette('yellow', { 8: '#a66100', 9: '#a35400' }),
    lime: palette('lime', { 8: '#4d7e0b', 9: '#4a760a' }),
    green: palette('green', { 8: '#278238', 9: '#257735' }),
    teal: palette('teal', { 8: '#08825d', 9: '#077655' }),
    cyan: palette('cyan', { 8: '#0b7d90', 9: '#0b7184' }),
  },
  components: {
    // Mantine's close buttons are an icon alone, with no name for screen readers or speech input.
    // Plain objects, not `Modal.extend(…)`: importing the components here would put the dialogs,
    // and the positioning library under them, in the sign-in page's bundle.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
});

/**
 * Text colours Mantine takes from light shades: error messages (red 6, 3.3:1) and placeholders
 * (gray 5, 2:1). Dimmed text is gray 6, fixed in the palette above. Links are blue 9 rather than
 * the primary blue 8, which is only 4.1:1 on the light blue of an info alert.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-anchor': 'var(--mantine-color-blue-9)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
  },
  dark: {},
});

import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than a phone's screen, scrolled sideways inside its own region. The region is
 * named and takes keyboard focus, so a keyboard user can scroll it with the arrow keys (WCAG
 * 2.1.1; axe's scrollable-region-focusable).
 */
export function ScrollRegion({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <Box miw={minWidth}>{children}</Box>
    </Box>
  );
}

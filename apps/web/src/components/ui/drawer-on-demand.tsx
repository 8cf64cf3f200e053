import type { DrawerProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';

const Drawer = lazy(() => import('./drawer'));

/**
 * Mantine's Drawer, downloaded the first time it opens. The public header's menu drawer is open
 * on narrow screens only, and the drawer with its focus trap, scroll lock and portal is a sixth of
 * the sign-in page's code.
 */
export function DrawerOnDemand(props: DrawerProps) {
  const [wanted, setWanted] = useState(props.opened);
  if (props.opened && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <Drawer {...props} />
    </Suspense>
  ) : null;
}

import { ModalsProvider } from '@mantine/modals';
import { BusinessLayout } from '../../components/layout/business-layout';
import { AmountConfirmation } from '../../components/ui/amount-confirmation';
import { LiveUpdates } from '../live-updates';

/**
 * The portal's layout with the confirmation dialogs its pages open (`modals.openConfirmModal`),
 * the prompt for a large amount, and the live updates of its screens: loaded with the portal, so the sign-in page carries
 * neither.
 */
export function BusinessShell() {
  return (
    <ModalsProvider>
      <LiveUpdates />
      <AmountConfirmation />
      <BusinessLayout />
    </ModalsProvider>
  );
}

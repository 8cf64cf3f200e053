import { ModalsProvider } from '@mantine/modals';
import { BusinessLayout } from '../../components/layout/business-layout';

/**
 * The portal's layout with the confirmation dialogs its pages open (`modals.openConfirmModal`):
 * loaded with the portal, so the sign-in page carries no dialog code.
 */
export function BusinessShell() {
  return (
    <ModalsProvider>
      <BusinessLayout />
    </ModalsProvider>
  );
}

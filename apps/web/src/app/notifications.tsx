// The notifications' container in a bundle of its own, loaded when the first one is shown, with
// its styles (the portal's and the payer's entries alike).
import '@mantine/notifications/styles.css';

export { Notifications as default } from '@mantine/notifications';

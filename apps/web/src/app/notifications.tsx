// The notifications' container in a bundle of its own, loaded when the first one is shown.
export { Notifications as default } from '@mantine/notifications';

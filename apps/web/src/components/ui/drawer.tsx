// Mantine's Drawer in a bundle of its own, for DrawerOnDemand.
export { Drawer as default } from '@mantine/core';

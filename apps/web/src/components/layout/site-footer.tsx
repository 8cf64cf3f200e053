import { ActionIcon, Anchor, Container, Group, Text } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandLinkedin, IconBrandX } from '@tabler/icons-react';
import { FOOTER_LINKS } from './marketing-links';

const SOCIAL = [
  { label: 'Tay on Facebook', href: 'https://www.facebook.com/', Icon: IconBrandFacebook },
  { label: 'Tay on X', href: 'https://x.com/', Icon: IconBrandX },
  { label: 'Tay on LinkedIn', href: 'https://www.linkedin.com/', Icon: IconBrandLinkedin },
  { label: 'Tay on Instagram', href: 'https://www.instagram.com/', Icon: IconBrandInstagram },
] as const;

export function SiteFooter() {
  return (
    <Container component="footer" size="xl" py="lg" mt="xl" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Group justify="space-between" wrap="wrap" gap="md">
        <Group gap="lg" component="nav" aria-label="Footer">
          {FOOTER_LINKS.map((link) => (
            <Anchor key={link.label} href={link.href} c="dimmed" size="sm">
              {link.label}
            </Anchor>
          ))}
        </Group>
        <Group gap="xs">
          {SOCIAL.map(({ label, href, Icon }) => (
            <ActionIcon key={label} component="a" href={href} variant="subtle" color="gray" aria-label={label} size="lg">
              <Icon size={20} stroke={1.5} />
            </ActionIcon>
          ))}
        </Group>
      </Group>
      <Text c="dimmed" size="xs" mt="md">
        © {new Date().getFullYear()} Tay Payments, Inc. All rights reserved.
      </Text>
    </Container>
  );
}

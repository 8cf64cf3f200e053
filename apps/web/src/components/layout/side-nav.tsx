import { Box, NavLink as MantineNavLink, Select, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { EntityType } from '@tay/contract';
import { preloadPage, preloadWhenIdle } from '../../lib/page-preload';
import type { TemplateOption } from '../../lib/template';
import { activeSection, likelyNextPage, navigationSections } from './navigation';

interface Props {
  template: EntityType;
  templates: TemplateOption[];
  onTemplateChange: (value: EntityType) => void;
  payoutEnabled: boolean;
  approved: boolean;
}

/**
 * The left navigation (docs/product.md §2): sections per template, items greyed unless the business is
 * Approved. Greyed items are text, not disabled links: readable (dimmed text meets AA contrast)
 * and explained by a note, where a disabled control would be skipped by keyboards and hidden from
 * some screen readers without saying why.
 */
export function SideNav({ template, templates, onTemplateChange, payoutEnabled, approved }: Props) {
  const { pathname, search } = useLocation();
  const active = activeSection(pathname);
  const sections = navigationSections(template, payoutEnabled);
  const likely = approved ? likelyNextPage(sections, pathname) : null;
  // The page most likely opened next loads while this one is still; a link pointed at loads its own.
  useEffect(() => (likely ? preloadWhenIdle([likely]) : undefined), [likely]);
  return (
    <Stack gap="md">
      <Select
        label="Template"
        data={templates}
        value={template}
        onChange={(value) => value && onTemplateChange(value as EntityType)}
        allowDeselect={false}
        disabled={templates.length < 2}
        comboboxProps={{ withinPortal: true }}
      />
      {!approved && (
        <Text size="sm" c="dimmed">
          These pages open once your business is approved.
        </Text>
      )}
      {sections.map((section) => (
        <Box key={section.key}>
          <Text size="xs" fw={700} tt="uppercase" c={section.key === active ? 'blue.8' : 'dimmed'} mb={4} data-active={section.key === active || undefined}>
            {section.label}
          </Text>
          {section.items.map((item) => {
            const current = `${pathname}${search}` === item.to || pathname === item.to || (item.ownsSubPaths === true && pathname.startsWith(`${item.to}/`));
            return approved ? (
              <MantineNavLink
                key={item.label}
                className="side-nav-link"
                component={Link}
                to={item.to}
                label={item.label}
                active={current}
                aria-current={current ? 'page' : undefined}
                onMouseEnter={() => preloadPage(item.to)}
                onFocus={() => preloadPage(item.to)}
                onTouchStart={() => preloadPage(item.to)}
              />
            ) : (
              <Text key={item.label} size="sm" c="dimmed" px="sm" py={8} data-disabled>
                {item.label}
              </Text>
            );
          })}
        </Box>
      ))}
    </Stack>
  );
}

import { Box, NavLink as MantineNavLink, Select, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import type { EntityType } from '@tay/contract';
import type { TemplateOption } from '../../lib/template';
import { activeSection, navigationSections } from './navigation';

interface Props {
  template: EntityType;
  templates: TemplateOption[];
  onTemplateChange: (value: EntityType) => void;
  payoutEnabled: boolean;
  approved: boolean;
}

/** The left navigation (spec §2): sections per template, items greyed unless the business is Approved. */
export function SideNav({ template, templates, onTemplateChange, payoutEnabled, approved }: Props) {
  const { pathname, search } = useLocation();
  const active = activeSection(pathname);
  return (
    <Stack gap="md" component="nav" aria-label="Business navigation">
      <Select
        label="Template"
        data={templates}
        value={template}
        onChange={(value) => value && onTemplateChange(value as EntityType)}
        allowDeselect={false}
        disabled={templates.length < 2}
        comboboxProps={{ withinPortal: true }}
      />
      {navigationSections(template, payoutEnabled).map((section) => (
        <Box key={section.key}>
          <Text
            size="xs"
            fw={700}
            tt="uppercase"
            c={section.key === active ? 'blue.7' : 'dimmed'}
            mb={4}
            data-active={section.key === active || undefined}
          >
            {section.label}
          </Text>
          {section.items.map((item) => {
            const current = `${pathname}${search}` === item.to || pathname === item.to;
            return approved ? (
              <MantineNavLink key={item.label} component={Link} to={item.to} label={item.label} active={current} />
            ) : (
              <MantineNavLink
                key={item.label}
                label={item.label}
                disabled
                aria-disabled="true"
                title="Available once your business is approved"
                c="dimmed"
              />
            );
          })}
        </Box>
      ))}
    </Stack>
  );
}

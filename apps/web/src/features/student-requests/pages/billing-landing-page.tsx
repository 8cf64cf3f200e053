import { Card, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconCalendarRepeat, IconCash, IconHistory, IconSchool, IconSend, IconUsersGroup } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { getHref, paths } from '@tay/contract';
import { paymentsHeading } from '../../../lib/template';
import { useDocumentTitle } from '../../../lib/use-document-title';

const CARDS: { title: string; description: string; to: string; icon: ReactNode }[] = [
  {
    title: 'Request to Pay Single Student',
    description: 'Bill one student’s guardian, or both, for a program and period.',
    to: getHref(paths.entity.studentRequest, undefined, { entity: true }),
    icon: <IconSend size={22} />,
  },
  {
    title: 'Request to Pay Multiple Students',
    description: 'Pick students by grade, program or a CSV file, review, then send.',
    to: paths.entity.bulkStudents,
    icon: <IconUsersGroup size={22} />,
  },
  {
    title: 'Billing Transactions',
    description: 'Every request with its student, program and period, and where it stands.',
    to: paths.entity.billingTransactions,
    icon: <IconHistory size={22} />,
  },
  {
    title: 'Students’ balances',
    description: 'Each student’s billed, paid and outstanding for the month.',
    to: paths.entity.studentBalances,
    icon: <IconCash size={22} />,
  },
  {
    title: 'Program Billing and Payment',
    description: 'Pick programs and a period, see who will be billed what, then submit.',
    to: paths.entity.programBilling,
    icon: <IconSchool size={22} />,
  },
  {
    title: 'Billing Cycles',
    description: 'Bill programs every month or term by themselves, and see what each run made.',
    to: paths.entity.billingCycles,
    icon: <IconCalendarRepeat size={22} />,
  },
];

/** /business/entity/billing: the student template's billing, one card per way to bill and to follow up. */
export function BillingLandingPage() {
  useDocumentTitle('Billing');
  return (
    <Stack gap="lg">
      <div>
        <Text size="sm" c="dimmed">
          {paymentsHeading('student')}
        </Text>
        <Title order={1}>Billing</Title>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {CARDS.map((card) => (
          <UnstyledButton key={card.title} component={Link} to={card.to} aria-label={card.title}>
            <Card withBorder radius="md" padding="lg" h="100%">
              {card.icon}
              <Text fw={600} mt="sm">
                {card.title}
              </Text>
              <Text size="sm" c="dimmed">
                {card.description}
              </Text>
            </Card>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

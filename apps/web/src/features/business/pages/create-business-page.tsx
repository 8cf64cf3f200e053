import { Button, Paper, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { CreateBusinessBody, ENTITY_TEMPLATE_NAMES, EntityType, paths } from '@tay/contract';
import { chooseTemplate } from '../../../lib/template';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCreateBusiness } from '../api/business-api';
import { applyFieldErrors } from '../components/api-field-errors';

const TEMPLATE_HELP: Record<EntityType, string> = {
  standard: 'Request payments and send invoices to any payer.',
  student: 'Bill students and their guardians for programs and terms.',
  healthCare: 'Bill patients and their guarantors.',
};

/** /business/profile: create the business and pick its template (it becomes entities[0]). */
export function CreateBusinessPage() {
  useDocumentTitle('Create your business');
  const navigate = useNavigate();
  const create = useCreateBusiness();
  const form = useForm<CreateBusinessBody>({
    resolver: zodResolver(CreateBusinessBody),
    defaultValues: { businessName: '', entityType: 'standard' },
  });

  const onSubmit = form.handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: (business) => {
        // The portal opens on the template just chosen (a school on School), switchable in the navigation.
        chooseTemplate(business.businessId, values.entityType);
        notifications.show({ color: 'teal', title: 'Business created', message: 'Next, fill in its details and submit them for review.' });
        // With a business, /business/profile leads home (docs/product.md §2); home lists the next steps.
        void navigate(paths.business.home, { replace: true });
      },
      onError: (error) => {
        applyFieldErrors(error, form.setError);
        notifications.show({ color: 'red', title: 'Business not created', message: error.message });
      },
    }),
  );

  return (
    <Stack gap="lg" maw={760}>
      <div>
        <Title order={1}>Create your business</Title>
        <Text c="dimmed">Start with its name and the way you bill. You will add the legal details next.</Text>
      </div>
      <Paper withBorder p="lg" radius="md" component="form" onSubmit={onSubmit} noValidate>
        <Stack gap="lg">
          <TextInput
            label="Business name"
            description="The name your payers know you by"
            error={form.formState.errors.businessName?.message}
            {...form.register('businessName')}
          />
          <Controller
            control={form.control}
            name="entityType"
            render={({ field }) => (
              <Radio.Group label="Template" description="How the portal is organised for you" value={field.value} onChange={field.onChange}>
                <SimpleGrid cols={{ base: 1, sm: 3 }} mt="xs">
                  {EntityType.options.map((type) => (
                    <Radio.Card key={type} value={type} p="md" radius="md" withBorder>
                      <Stack gap={4}>
                        <Radio.Indicator />
                        <Text fw={600}>{ENTITY_TEMPLATE_NAMES[type]}</Text>
                        <Text size="sm" c="dimmed">
                          {TEMPLATE_HELP[type]}
                        </Text>
                      </Stack>
                    </Radio.Card>
                  ))}
                </SimpleGrid>
              </Radio.Group>
            )}
          />
          <Button type="submit" loading={create.isPending} w="fit-content">
            Create business
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}

import { Anchor, Button, Group } from '@mantine/core';
import { IconPlus, IconUpload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PartyTemplate } from '@tay/contract';

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What a template's party list says around its table (ADR 048), for `EntityListPage`: the Add and
 * Import buttons (for those who may change the parties), the description with a link to the past
 * imports, the caption, and the empty and no-match states — in the template's words.
 */
export function partyListChrome(template: PartyTemplate, allowed: boolean, intro: ReactNode) {
  const { one, many } = template.party;
  const addButton = (
    <Button component={Link} to={template.pages.add} leftSection={<IconPlus size={16} />} disabled={!allowed}>
      Add {one}
    </Button>
  );
  const importButton = (
    <Button component={Link} to={template.pages.import} variant="default" leftSection={<IconUpload size={16} />} disabled={!allowed}>
      Import {many}
    </Button>
  );
  const buttons = (
    <>
      {importButton}
      {addButton}
    </>
  );
  return {
    description: (
      <>
        {intro}{' '}
        <Anchor component={Link} to={template.pages.imports} size="sm" underline="always">
          Past imports
        </Anchor>
      </>
    ),
    actions: allowed ? buttons : null,
    caption: capital(many),
    noMatches: { title: `No ${many} match`, description: `Nothing matches the search and filters you chose. Clear them to see every ${one}.` },
    empty: {
      title: `No ${many} yet`,
      description: `Add your ${many} one by one, or import them with their ${template.payerRole.one}s from a CSV file.`,
      action: allowed ? (
        <Group gap="sm" justify="center">
          {buttons}
        </Group>
      ) : undefined,
    },
  };
}

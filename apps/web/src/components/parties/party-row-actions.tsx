import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { partyHrefs, type PartyTemplate } from '@tay/contract';
import { rowActionsOf, type RowAction } from '../ui/data-table';

/** The commands every party has (ADR 048): Activate happens at once, Deactivate and Delete ask first. */
export type PartyCommand = 'activate' | 'deactivate' | 'delete';

/** The row actions a template's party may list; a template adds its own (a student's Enrollment) as `extra`. */
export type PartyAction = 'Edit' | 'Request to Pay' | 'Transactions' | 'Activate' | 'Deactivate' | 'Delete';

interface Party {
  name: string;
  actions: readonly string[];
}

export interface PartyRowActionsOptions<T extends Party, A extends string> {
  template: PartyTemplate;
  /** The party's id in its pages' query (`studentId`, `clientId`). */
  idOf: (party: T) => string;
  /** Every action the API may list for the party (its contract's enum). */
  known: readonly A[];
  /** The actions that change nothing: all a person may use who cannot change the parties. */
  readOnly: readonly A[];
  canWrite: boolean;
  command: (party: T, command: PartyCommand, callbacks: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  /** What each command did, in its toast; and the consequences the confirmation says first. */
  done: { deleted: (party: T) => string };
  confirmText: Record<'deactivate' | 'delete', string>;
  /** The template's own actions (`Enrollment` opens a drawer). */
  extra?: Partial<Record<A, (party: T) => void>>;
}

/**
 * A party's row actions as the list shows them: those the API lists for the row, less the ones
 * that change it when the person may not; Edit, Request to Pay and Transactions open the party's
 * pages; Deactivate and Delete ask first; Activate happens at once. Each change is said in a toast.
 */
export function usePartyRowActions<T extends Party, A extends string>(options: PartyRowActionsOptions<T, A>) {
  const navigate = useNavigate();
  const { template, idOf, canWrite } = options;
  const title = template.party.title;
  const said: Record<PartyCommand, { title: string; verb: string; text: (p: T) => string }> = {
    activate: { title: `${title} activated`, verb: 'activated', text: (p) => `${p.name} can be billed again.` },
    deactivate: { title: `${title} deactivated`, verb: 'deactivated', text: (p) => `${p.name} is not billed until you activate them again.` },
    delete: { title: `${title} deleted`, verb: 'deleted', text: options.done.deleted },
  };

  const change = (party: T, name: PartyCommand) =>
    options.command(party, name, {
      onSuccess: () => notifications.show({ color: 'teal', title: said[name].title, message: said[name].text(party) }),
      onError: (error) => notifications.show({ color: 'red', title: `${party.name} was not ${said[name].verb}`, message: error.message }),
    });

  const confirm = (party: T, name: 'deactivate' | 'delete') =>
    modals.openConfirmModal({
      title: name === 'delete' ? `Delete ${party.name}?` : `Deactivate ${party.name}?`,
      children: <Text size="sm">{options.confirmText[name]}</Text>,
      labels: { confirm: name === 'delete' ? 'Yes, delete' : 'Yes, deactivate', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => change(party, name),
    });

  const run = (action: A, party: T) => {
    const own = options.extra?.[action];
    if (own) return own(party);
    const hrefs = partyHrefs(template, idOf(party));
    switch (action as string as PartyAction) {
      case 'Edit':
        return void navigate(hrefs.edit);
      case 'Request to Pay':
        return void navigate(hrefs.request);
      case 'Transactions':
        return void navigate(hrefs.transactions);
      case 'Activate':
        return change(party, 'activate');
      case 'Deactivate':
        return confirm(party, 'deactivate');
      case 'Delete':
        return confirm(party, 'delete');
    }
  };

  /** The row's menu: the actions the API lists that the person may use, Delete in red. */
  const allowed = (party: T): A[] =>
    party.actions.filter((a): a is A => (options.known as readonly string[]).includes(a)).filter((a) => canWrite || options.readOnly.includes(a));
  const rowActions = (party: T): RowAction<T>[] => rowActionsOf(allowed(party), run);

  return { run, rowActions, canWrite };
}

import { DateField } from '../../../forms/DateField.tsx';
import type { ComponentProps } from 'react';
import { Textarea } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { domainUpdatePayloadSchema } from '@berth/contracts';

/** The expiry as a date input gives it: `2027-03-01`, or '' for none. */
export const expiryFieldSchema = z.union([z.literal(''), z.iso.date()]);
export const notesFieldSchema = domainUpdatePayloadSchema.shape.notes.unwrap();

/** An admin's expiry date, written as the user's language writes dates; empty means the domain does not expire. */
export function ExpiryField(props: { value: string; onChange: (value: string) => void; error?: string | undefined; name?: string }) {
  const { t } = useTranslation();
  return (
    <DateField
      label={t('domains.fields.expiry')}
      description={t('domains.fields.expiryHint')}
      leftSection={<IconCalendar size={16} aria-hidden />}
      {...props}
    />
  );
}

type TextareaProps = Omit<ComponentProps<typeof Textarea>, 'label'>;

/** Free notes on a domain (who ordered it, where its DNS lived before, ...). */
export function NotesField(props: TextareaProps) {
  const { t } = useTranslation();
  return (
    <Textarea label={t('domains.fields.notes')} description={t('domains.fields.notesHint')} autosize minRows={3} maxRows={10} {...props} />
  );
}

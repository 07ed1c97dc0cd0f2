import type { ComponentProps } from 'react';
import { Textarea, TextInput } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { domainUpdatePayloadSchema } from '@berth/contracts';

/** The expiry as a date input gives it: `2027-03-01`, or '' for none. */
export const expiryFieldSchema = z.union([z.literal(''), z.iso.date()]);
export const notesFieldSchema = domainUpdatePayloadSchema.shape.notes.unwrap();

type InputProps = Omit<ComponentProps<typeof TextInput>, 'label' | 'type'>;

/** An admin's expiry date (the browser's date picker); empty means the domain does not expire. */
export function ExpiryField(props: InputProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="date"
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

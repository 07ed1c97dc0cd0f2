import { Fragment } from 'react';
import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OutboxMail } from '@berth/contracts';
import { AppModal } from '../../components/AppModal.tsx';
import { formatDateTime } from '../../components/formatDate.ts';
import classes from './Outbox.module.css';

const URL_PATTERN = /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])/g;

/** The text body with its links clickable (they open in a new tab, the outbox stays). */
function Linkified({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <Anchor key={index} href={part} target="_blank" rel="noopener noreferrer" className={classes.link}>
            {part}
          </Anchor>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

interface OutboxMailModalProps {
  mail: OutboxMail | null;
  onClose: () => void;
}

/** One kept mail: recipient, date and its text body. */
export function OutboxMailModal({ mail, onClose }: OutboxMailModalProps) {
  const { t } = useTranslation();
  const opened = mail !== null;

  return (
    <AppModal opened={opened} onClose={onClose} title={mail?.subject} size="lg">
      {mail ? (
        <Stack gap="md">
          <dl className={classes.meta}>
            <dt>{t('outbox.to')}</dt>
            <dd>{mail.to}</dd>
            <dt>{t('outbox.date')}</dt>
            <dd>
              <time dateTime={mail.created_at}>{formatDateTime(mail.created_at)}</time>
            </dd>
          </dl>
          <Text component="div" className={classes.body}>
            <Linkified text={mail.text} />
          </Text>
        </Stack>
      ) : null}
    </AppModal>
  );
}

import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../components/formatDate.ts';
import type { Domain } from '@berth/contracts';
import { useDomainVerify } from '../../../api/domains.ts';
import { CopyValueButton } from '../../../components/CopyValueButton.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import classes from './Domains.module.css';

/**
 * A domain a customer added as theirs waits for its proof: the TXT record to publish at the DNS
 * provider that serves the name today, each part with a copy button, and "Check now". Until the
 * record is found, Berth serves neither the zone nor the mail (migration 0019_domain_proof).
 */
export function DomainProofSection({ domain, proof }: { domain: Domain; proof: NonNullable<Domain['proof']> }) {
  const { t } = useTranslation();
  const verify = useDomainVerify(domain.id);
  const [error, setError] = useState<string | null>(null);

  const check = async () => {
    setError(null);
    try {
      const answer = await verify.mutateAsync();
      pushMessage({ type: 'notice', data: answer.message ?? t('domains.proof.done', { name: domain.text }), timeout: NOTICE_TIMEOUT_MS });
    } catch (failure) {
      setError(describeError(failure, t));
    }
  };

  const parts = [
    { key: 'type', label: t('domains.proof.type'), value: 'TXT', copy: false },
    { key: 'record', label: t('domains.proof.record'), value: proof.record, copy: true },
    { key: 'value', label: t('domains.proof.value'), value: proof.value, copy: true },
  ] as const;

  return (
    <Section id="proof" title={t('domains.proof.title')} description={t('domains.proof.description')}>
      <Stack gap="md" data-testid="domain-proof">
        <Text fz="sm">{t('domains.proof.how', { name: domain.text })}</Text>
        <dl className={classes.proofRecord}>
          {parts.map((part) => (
            <div key={part.key} className={classes.proofPart}>
              <dt>{part.label}</dt>
              <dd>
                <span className={classes.mono} data-testid={`proof-${part.key}`}>
                  {part.value}
                </span>
                {part.copy ? (
                  <CopyValueButton
                    value={part.value}
                    label={t('domains.proof.copy', { part: part.label })}
                    copiedLabel={t('domains.proof.copied')}
                  />
                ) : null}
              </dd>
            </div>
          ))}
        </dl>
        <Text fz="sm" c="dimmed" data-testid="proof-held-until">
          {t('domains.proof.heldUntil', { date: formatDate(proof.held_until) })}
        </Text>
        {error ? <FormAlert kind="error">{error}</FormAlert> : null}
        <div>
          <Button onClick={() => void check()} loading={verify.isPending} leftSection={<IconShieldCheck size={16} aria-hidden />}>
            {t('domains.proof.check')}
          </Button>
        </div>
      </Stack>
    </Section>
  );
}

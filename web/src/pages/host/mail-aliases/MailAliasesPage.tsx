import { useState } from 'react';
import { ActionIcon, Button, Group, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconMailForward, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { mailAliasCreatePayloadSchema, type Domain, type MailAlias } from '@berth/contracts';
import { useMailAliasCreate, useMailAliasDelete, useMailAliases } from '../../../api/mailAliases.ts';
import { DeleteDialog } from '../../../components/DeleteDialog.tsx';
import { LoadingRows } from '../../../components/ListStates.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { useAnswerForm } from '../../../forms/useAnswerForm.ts';
import { Section } from '../../PageHeader.tsx';
import { DomainPageFrame, useDomainIdParam } from '../domain-users/DomainPageFrame.tsx';
import classes from '../domain-users/DomainPages.module.css';
import { ServingNotice } from '../../../components/ServingNotice.tsx';

const FIELDS = ['local_part', 'destination'] as const;
const EMPTY = { local_part: '', destination: '' };
/** Addresses are typed as they are: no autofill, capitals or spelling fixes. */
const ADDRESS_INPUT = { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, miw: 220 } as const;

/** /host/domain/{id}/aliases: addresses of the domain whose mail goes on to another address. */
export function MailAliasesPage() {
  const { t } = useTranslation();
  const domainId = useDomainIdParam();
  // The forwarders load alongside the domain rather than after it.
  useMailAliases(domainId ?? 0, domainId !== null);

  return (
    <DomainPageFrame
      domainId={domainId}
      pageName={t('mailAliases.pageName')}
      title={(domain) => t('mailAliases.title', { domain })}
      description={t('mailAliases.description')}
    >
      {(domain) => (
        <>
          <ServingNotice service="mail" />
          <AddForwarder domain={domain} />
          <Forwarders domain={domain} />
        </>
      )}
    </DomainPageFrame>
  );
}

function AddForwarder({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const create = useMailAliasCreate(domain.id);
  const { form, onSubmit, formError } = useAnswerForm({
    schema: mailAliasCreatePayloadSchema,
    defaultValues: EMPTY,
    fields: FIELDS,
    send: async (values) => {
      const answer = await create.mutateAsync(values);
      pushMessage({ type: 'notice', data: answer.message ?? 'mailAliases.created', timeout: NOTICE_TIMEOUT_MS });
      return {};
    },
    doneText: 'mailAliases.created',
    afterDone: () => EMPTY,
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  return (
    <Section id="add-forwarder" title={t('mailAliases.add.title')}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="sm">
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <Group align="flex-start" gap="sm" grow preventGrowOverflow={false} wrap="wrap">
            <TextInput
              label={t('mailAliases.add.localPart')}
              description={t('mailAliases.add.localPartHint')}
              placeholder="sales"
              {...ADDRESS_INPUT}
              error={errors.local_part?.message}
              inputContainer={(input) => (
                <div className={classes.suffixed}>
                  {input}
                  <span className={classes.suffix} title={`@${domain.text}`} aria-hidden>
                    @{domain.text}
                  </span>
                </div>
              )}
              {...register('local_part')}
            />
            <TextInput
              type="email"
              label={t('mailAliases.add.destination')}
              description={t('mailAliases.add.destinationHint')}
              placeholder="someone@example.com"
              {...ADDRESS_INPUT}
              error={errors.destination?.message}
              {...register('destination')}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={isSubmitting} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('mailAliases.add.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function Forwarders({ domain }: { domain: Domain }) {
  const { t } = useTranslation();
  const aliases = useMailAliases(domain.id);
  const remove = useMailAliasDelete(domain.id);
  const [deleting, setDeleting] = useState<MailAlias | null>(null);
  const list = aliases.data ?? [];

  return (
    <Section
      id="forwarders"
      title={t('mailAliases.listTitle')}
      aside={
        aliases.isSuccess ? (
          <Text fz="sm" c="dimmed">
            {t('mailAliases.count', { count: list.length })}
          </Text>
        ) : null
      }
    >
      {aliases.isPending ? (
        <LoadingRows height={44} />
      ) : aliases.isError ? (
        <LoadFailed error={aliases.error} onRetry={() => void aliases.refetch()} />
      ) : list.length === 0 ? (
        <Stack align="center" gap="xs" ta="center" className={classes.empty}>
          <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
            <IconMailForward size={24} stroke={1.6} />
          </ThemeIcon>
          <Text fw={600}>{t('mailAliases.empty.title')}</Text>
          <Text fz="sm" c="dimmed" maw={420}>
            {t('mailAliases.empty.body', { domain: domain.text })}
          </Text>
        </Stack>
      ) : (
        <table className={classes.table}>
          <thead>
            <tr>
              <th scope="col">{t('mailAliases.columns.address')}</th>
              <th scope="col">{t('mailAliases.columns.destination')}</th>
              <th scope="col">
                <span className={classes.visuallyHidden}>{t('mailAliases.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((alias) => (
              <tr key={alias.id} data-testid="mail-alias-row">
                <th scope="row" className={classes.primaryCell}>
                  {alias.address}
                </th>
                <td data-label={t('mailAliases.columns.destination')}>
                  <Group gap={6} wrap="nowrap">
                    <IconArrowRight size={14} aria-hidden />
                    <span>{alias.destination}</span>
                  </Group>
                </td>
                <td className={classes.actionCell}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('mailAliases.remove', { address: alias.address, destination: alias.destination })}
                    onClick={() => setDeleting(alias)}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DeleteDialog
        target={deleting}
        title={t('mailAliases.delete.title')}
        confirmLabel={t('mailAliases.delete.confirm')}
        remove={(alias) => remove.mutateAsync(alias)}
        done="mailAliases.delete.done"
        onClose={() => {
          setDeleting(null);
        }}
      >
        {t('mailAliases.delete.body', { address: deleting?.address ?? '', destination: deleting?.destination ?? '' })}
      </DeleteDialog>
    </Section>
  );
}

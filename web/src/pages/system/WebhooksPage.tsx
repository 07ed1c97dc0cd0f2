import { useState, type FormEvent } from 'react';
import { Badge, Button, Checkbox, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconKey, IconPlus, IconRefresh, IconSend, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SUBSCRIBABLE_EVENTS, type WebhookEndpoint } from '@berth/contracts';
import {
  useWebhookAction,
  useWebhookAllowedRanges,
  useWebhookAllowedRangesSave,
  useWebhookCreate,
  useWebhookDeliveries,
  useWebhookRotate,
  useWebhooks,
  type WebhookSecretAnswer,
} from '../../api/webhooks.ts';
import { ApiError } from '../../api/client.ts';
import { AppModal } from '../../components/AppModal.tsx';
import { CopyValueButton } from '../../components/CopyValueButton.tsx';
import { formatDateTime } from '../../components/formatDate.ts';
import { EmptyState, LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../components/messageStore.ts';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { useMay } from '../../shell/useSignedInUser.ts';
import { NotAllowedPage } from '../NotAllowedPage.tsx';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import hookClasses from './Jobs.module.css';

/**
 * /system/webhooks (admins of a tenant): signed outgoing webhooks (Standard Webhooks). Endpoints
 * with the events they take, a secret shown once (and on rotation), a test event, and each
 * endpoint's delivery log with replay.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const abilities = useMay();
  const may = abilities('webhooks.manage');
  const mayAllow = abilities('webhooks.allow_ranges');
  const endpoints = useWebhooks(may);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<number | null>(null);
  const [secret, setSecret] = useState<WebhookSecretAnswer | null>(null);
  usePageTitle(t('webhooks.title'));

  if (!may) return <NotAllowedPage title={t('webhooks.title')} />;
  return (
    <div className={classes.page}>
      <PageHeader
        title={t('webhooks.title')}
        description={t('webhooks.description')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {t('webhooks.add')}
          </Button>
        }
      />
      <Section id="endpoints" title={t('webhooks.listTitle')}>
        {endpoints.isPending ? (
          <LoadingRows height={48} />
        ) : endpoints.isError ? (
          <LoadFailed error={endpoints.error} onRetry={() => void endpoints.refetch()} />
        ) : endpoints.data.length === 0 ? (
          <EmptyState icon={<IconWebhook size={24} stroke={1.6} />} title={t('webhooks.emptyTitle')}>
            {t('webhooks.empty')}
          </EmptyState>
        ) : (
          <Stack gap="md">
            {endpoints.data.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                open={shown === endpoint.id}
                onToggle={() => setShown(shown === endpoint.id ? null : endpoint.id)}
                onSecret={setSecret}
              />
            ))}
          </Stack>
        )}
      </Section>
      {mayAllow ? <AllowedRangesSection /> : null}
      <EndpointDialog opened={adding} onClose={() => setAdding(false)} onCreated={setSecret} />
      <SecretDialog answer={secret} onClose={() => setSecret(null)} />
    </div>
  );
}

/**
 * Super admins: private ranges every tenant's webhooks may reach (an automation host inside the
 * operator's network). Webhooks go to public addresses only otherwise.
 */
function AllowedRangesSection() {
  const { t } = useTranslation();
  const ranges = useWebhookAllowedRanges(true);
  return (
    <Section id="allowed-ranges" title={t('webhooks.ranges.title')} description={t('webhooks.ranges.description')}>
      {ranges.isPending ? (
        <LoadingRows height={48} />
      ) : ranges.isError ? (
        <LoadFailed error={ranges.error} onRetry={() => void ranges.refetch()} />
      ) : (
        <AllowedRangesForm initial={ranges.data.ranges} environment={ranges.data.environment} />
      )}
    </Section>
  );
}

function AllowedRangesForm({ initial, environment }: { initial: string[]; environment: string[] }) {
  const { t } = useTranslation();
  const save = useWebhookAllowedRangesSave();
  const [text, setText] = useState(initial.join('\n'));
  const [error, setError] = useState<string | null>(null);
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await save.mutateAsync(lines);
      setText(answer.data.ranges.join('\n'));
      pushMessage({ type: 'notice', data: answer.message ?? t('webhooks.ranges.saved'), timeout: NOTICE_TIMEOUT_MS });
    } catch (failure) {
      // The server names the line: ranges.<n>.
      const fields = failure instanceof ApiError ? failure.fieldErrors : {};
      const line = Object.keys(fields).map((key) => Number(key.split('.')[1]))[0];
      setError(
        line !== undefined && lines[line] !== undefined ? t('webhooks.ranges.badLine', { line: lines[line] }) : describeError(failure, t),
      );
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className={classes.formNarrow} data-testid="allowed-ranges-form">
      <Stack gap="md">
        <Textarea
          label={t('webhooks.ranges.label')}
          description={t('webhooks.ranges.hint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={3}
          maxRows={12}
          spellCheck={false}
          autoCapitalize="off"
          error={error}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {environment.length > 0 ? (
          <Text fz="sm" c="dimmed" data-testid="allowed-ranges-environment">
            {t('webhooks.ranges.environment', { ranges: environment.join(', ') })}
          </Text>
        ) : null}
        <div>
          <Button type="submit" loading={save.isPending}>
            {t('webhooks.ranges.save')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

function EndpointCard({
  endpoint,
  open,
  onToggle,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  open: boolean;
  onToggle: () => void;
  onSecret: (answer: WebhookSecretAnswer) => void;
}) {
  const { t } = useTranslation();
  const action = useWebhookAction();
  const rotate = useWebhookRotate();
  const run = (path: string, method: 'POST' | 'DELETE') =>
    action.mutate(
      { path, method },
      {
        onSuccess: (answer) => pushMessage({ type: 'notice', data: answer.message ?? '', timeout: NOTICE_TIMEOUT_MS }),
        onError: (error) => pushMessage({ type: 'error', data: translateServerText(error.message), timeout: NOTICE_TIMEOUT_MS }),
      },
    );
  return (
    <div className={hookClasses.card} data-testid={`webhook-${endpoint.id}`}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div className={hookClasses.grow}>
          <div className={hookClasses.name}>{endpoint.url}</div>
          {endpoint.description ? (
            <Text fz="sm" className={hookClasses.dimmed}>
              {endpoint.description}
            </Text>
          ) : null}
          <Group gap={4} mt={6}>
            {endpoint.enabled ? null : (
              <Badge color="gray" variant="light" size="sm">
                {t('webhooks.off')}
              </Badge>
            )}
            {endpoint.events.map((event) => (
              <Badge key={event} variant="light" size="sm">
                {event}
              </Badge>
            ))}
          </Group>
        </div>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSend size={14} aria-hidden />}
            onClick={() => run(`/system/webhooks/${endpoint.id}/test`, 'POST')}
          >
            {t('webhooks.test')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconKey size={14} aria-hidden />}
            loading={rotate.isPending}
            onClick={() => rotate.mutate(endpoint.id, { onSuccess: onSecret })}
          >
            {t('webhooks.rotate')}
          </Button>
          <Button size="xs" variant="default" onClick={onToggle} aria-expanded={open}>
            {open ? t('webhooks.hideLog') : t('webhooks.showLog')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            aria-label={t('webhooks.deleteLabel', { url: endpoint.url })}
            onClick={() => run(`/system/webhooks/${endpoint.id}`, 'DELETE')}
          >
            {t('webhooks.remove')}
          </Button>
        </Group>
      </Group>
      {endpoint.previous_secret_until ? (
        <Text fz="xs" className={hookClasses.dimmed} mt={6}>
          {t('webhooks.graceUntil', { date: formatDateTime(endpoint.previous_secret_until) })}
        </Text>
      ) : null}
      {open ? (
        <div className={hookClasses.log}>
          <DeliveryLog endpointId={endpoint.id} onReplay={(id) => run(`/system/webhooks/deliveries/${id}/replay`, 'POST')} />
        </div>
      ) : null}
    </div>
  );
}

function DeliveryLog({ endpointId, onReplay }: { endpointId: number; onReplay: (deliveryId: number) => void }) {
  const { t } = useTranslation();
  const log = useWebhookDeliveries(endpointId);
  if (log.isPending) return <LoadingRows height={36} />;
  if (log.isError) return <LoadFailed error={log.error} onRetry={() => void log.refetch()} />;
  if (log.data.length === 0)
    return (
      <Text fz="sm" className={hookClasses.dimmed} mt="sm">
        {t('webhooks.noDeliveries')}
      </Text>
    );
  return (
    <table className={hookClasses.table} data-testid="webhook-deliveries">
      <caption className={hookClasses.visuallyHidden}>{t('webhooks.logTitle')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('webhooks.event')}</th>
          <th scope="col">{t('webhooks.result')}</th>
          <th scope="col">{t('webhooks.when')}</th>
          <th scope="col">
            <span className={hookClasses.visuallyHidden}>{t('webhooks.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {log.data.map((delivery) => (
          <tr key={delivery.id}>
            <td data-label={t('webhooks.event')}>
              <div>
                <div className={hookClasses.name}>{delivery.event_type}</div>
                <Text fz="xs" className={hookClasses.dimmed}>
                  {t('webhooks.attempt', { attempt: delivery.attempt })} · {delivery.event_id}
                </Text>
              </div>
            </td>
            <td data-label={t('webhooks.result')}>
              <div>
                <Badge variant="light" size="sm" color={delivery.status === 'delivered' ? 'green' : 'red'}>
                  {delivery.response_code ?? t(`webhooks.status.${delivery.status}`)}
                </Badge>
                {delivery.error || delivery.response_excerpt ? (
                  <Text fz="xs" className={hookClasses.error} c={delivery.status === 'failed' ? 'red.8' : 'dimmed'}>
                    {delivery.error ?? delivery.response_excerpt?.slice(0, 200)}
                  </Text>
                ) : null}
              </div>
            </td>
            <td data-label={t('webhooks.when')}>
              <RelativeTime iso={delivery.created_at} />
            </td>
            <td data-label={t('webhooks.actions')}>
              <Button size="xs" variant="subtle" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => onReplay(delivery.id)}>
                {t('webhooks.replay')}
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EndpointDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (answer: WebhookSecretAnswer) => void;
}) {
  const { t } = useTranslation();
  const create = useWebhookCreate();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const fieldErrors = create.error?.fieldErrors ?? {};
  // An answer's errors are about what was sent: a change makes them stale.
  const edited = () => {
    if (create.isError) create.reset();
  };
  const close = () => {
    setUrl('');
    setDescription('');
    setEvents([]);
    create.reset();
    onClose();
  };
  return (
    <AppModal opened={opened} onClose={close} title={t('webhooks.addTitle')} size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(
            { url, description, events: events as never },
            {
              onSuccess: (answer) => {
                close();
                onCreated(answer);
              },
            },
          );
        }}
      >
        <Stack gap="md">
          {create.isError && !create.error.isValidation ? <FormAlert kind="error">{describeError(create.error, t)}</FormAlert> : null}
          <TextInput
            label={t('webhooks.url')}
            description={t('webhooks.urlHint')}
            placeholder="https://crm.example.com/hooks/berth"
            value={url}
            onChange={(event) => {
              edited();
              setUrl(event.currentTarget.value);
            }}
            error={fieldErrors.url?.join(' ')}
            required
            data-autofocus
            spellCheck={false}
          />
          <TextInput
            label={t('webhooks.descriptionLabel')}
            value={description}
            onChange={(event) => {
              edited();
              setDescription(event.currentTarget.value);
            }}
            error={fieldErrors.description?.join(' ')}
          />
          <Checkbox.Group
            label={t('webhooks.events')}
            value={events}
            onChange={(next) => {
              edited();
              setEvents(next);
            }}
            error={fieldErrors.events?.join(' ')}
            required
          >
            <Stack gap={6} mt={6}>
              {SUBSCRIBABLE_EVENTS.map((event) => (
                <Checkbox
                  key={event}
                  value={event}
                  label={`${event} — ${t(`webhooks.eventNames.${event.replace('.', '_') as 'customer_created'}`)}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('webhooks.addSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}

function SecretDialog({ answer, onClose }: { answer: WebhookSecretAnswer | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AppModal opened={answer !== null} onClose={onClose} title={t('webhooks.secretTitle')} size="lg">
      {answer ? (
        <Stack gap="md">
          <FormAlert kind="success">{translateServerText(answer.message)}</FormAlert>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <code className={hookClasses.secret} data-testid="webhook-secret">
              {answer.data.secret}
            </code>
            <CopyValueButton value={answer.data.secret} label={t('webhooks.copy')} copiedLabel={t('webhooks.copied')} />
          </Group>
          <Text fz="sm" className={hookClasses.dimmed}>
            {t('webhooks.verifyHint')}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('webhooks.done')}</Button>
          </Group>
        </Stack>
      ) : null}
    </AppModal>
  );
}

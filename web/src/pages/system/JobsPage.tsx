import { useState } from 'react';
import { Badge, Button, NativeSelect, Text } from '@mantine/core';
import { IconListCheck, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { JobInfo, JobState } from '@berth/contracts';
import { useJobRetry, useJobs } from '../../api/jobs.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../components/messageStore.ts';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { EmptyState, LoadingRows } from '../../components/ListStates.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { translateServerText } from '../../i18n/i18n.ts';
import { useMay } from '../../shell/useSignedInUser.ts';
import { NotAllowedPage } from '../NotAllowedPage.tsx';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import jobClasses from './Jobs.module.css';

const FILTERS: readonly (JobState | '')[] = ['', 'waiting', 'retrying', 'running', 'failed', 'done'];
const STATE_COLORS: Record<JobState, string> = { waiting: 'gray', retrying: 'yellow', running: 'blue', failed: 'red', done: 'green' };

/**
 * /system/jobs (super admins): the durable job queue — mails and the work that follows an answer —
 * waiting, retrying with the last error, running, failed (with "Retry") and done in the last hour.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const may = useMay()('jobs.manage');
  const [state, setState] = useState<JobState | ''>('');
  const jobs = useJobs(state, may);
  usePageTitle(t('jobs.title'));

  if (!may) return <NotAllowedPage title={t('jobs.title')} />;
  const counts = jobs.data?.counts;
  return (
    <div className={classes.page}>
      <PageHeader title={t('jobs.title')} description={t('jobs.description')} />
      <Section
        id="jobs"
        title={t('jobs.listTitle')}
        aside={
          <NativeSelect
            aria-label={t('jobs.filter')}
            size="sm"
            value={state}
            onChange={(event) => setState(event.currentTarget.value as JobState | '')}
            data={FILTERS.map((option) => ({
              value: option,
              label: option === '' ? t('jobs.all') : `${t(`jobs.state.${option}`)}${counts ? ` (${counts[option].toLocaleString()})` : ''}`,
            }))}
          />
        }
      >
        {jobs.isPending ? (
          <LoadingRows height={48} />
        ) : jobs.isError ? (
          <LoadFailed error={jobs.error} onRetry={() => void jobs.refetch()} />
        ) : jobs.data.data.length === 0 ? (
          <EmptyState icon={<IconListCheck size={24} stroke={1.6} />} title={t('jobs.emptyTitle')}>
            {t('jobs.empty')}
          </EmptyState>
        ) : (
          <table className={jobClasses.table} data-testid="jobs-table">
            <thead>
              <tr>
                <th scope="col">{t('jobs.kind')}</th>
                <th scope="col">{t('jobs.stateTitle')}</th>
                <th scope="col">{t('jobs.attempts')}</th>
                <th scope="col">{t('jobs.when')}</th>
                <th scope="col">
                  <span className={jobClasses.visuallyHidden}>{t('jobs.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.data.map((job) => (
                <JobRow key={job.id} job={job} />
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}

function JobRow({ job }: { job: JobInfo }) {
  const { t } = useTranslation();
  const retry = useJobRetry();
  return (
    <tr data-testid={`job-${job.id}`}>
      <td data-label={t('jobs.kind')}>
        <div>
          <div className={jobClasses.name}>{t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind })}</div>
          {job.subject ? (
            <Text fz="xs" className={jobClasses.dimmed}>
              {job.subject}
            </Text>
          ) : null}
        </div>
      </td>
      <td data-label={t('jobs.stateTitle')}>
        <div>
          <Badge variant="light" size="sm" color={STATE_COLORS[job.state]}>
            {t(`jobs.state.${job.state}`)}
          </Badge>
          {job.error ? (
            <Text fz="xs" c="red.8" className={jobClasses.error}>
              {job.error}
            </Text>
          ) : null}
        </div>
      </td>
      <td data-label={t('jobs.attempts')}>{t('jobs.attemptsOf', { attempts: job.attempts, max: job.max_attempts })}</td>
      <td data-label={t('jobs.when')}>
        <span>
          {job.next_try_at && job.state !== 'waiting' ? (
            <>
              {t('jobs.nextTry')} <RelativeTime iso={job.next_try_at} />
            </>
          ) : job.finished_at ? (
            <>
              {t('jobs.finished')} <RelativeTime iso={job.finished_at} />
            </>
          ) : (
            <>
              {t('jobs.created')} <RelativeTime iso={job.created_at} />
            </>
          )}
        </span>
      </td>
      <td data-label={t('jobs.actions')} className={job.state === 'failed' ? undefined : jobClasses.noAction}>
        {job.state === 'failed' ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={14} />}
            loading={retry.isPending}
            aria-label={t('jobs.retryLabel', { kind: t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind }) })}
            onClick={() =>
              retry.mutate(job.id, {
                onSuccess: (answer) =>
                  pushMessage({ type: 'notice', data: answer.message ?? t('jobs.retried'), timeout: NOTICE_TIMEOUT_MS }),
                onError: (error) => pushMessage({ type: 'error', data: translateServerText(error.message), timeout: NOTICE_TIMEOUT_MS }),
              })
            }
          >
            {t('jobs.retry')}
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, Skeleton, Stack } from '@mantine/core';
import { IconDeviceDesktop, IconKey, IconLogout, IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SessionListItem } from '@berth/contracts';
import { useSessionRevoke, useSessions } from '../../api/account.ts';
import { formatDateTime, formatRelative } from '../../components/formatDate.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { useSignedInUser } from '../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import { AvatarControl, EmailChangeForm, ProfileForm } from './ProfileDetails.tsx';
import classes from '../Pages.module.css';
import accountClasses from './Account.module.css';

/** /account: who you are here, and where you are signed in. */
export function AccountPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  usePageTitle(t('accountPage.title'));

  return (
    <div className={classes.page}>
      <PageHeader title={t('accountPage.title')} description={t('accountPage.description')} />

      <Section id="profile" title={t('accountPage.profile')}>
        <AvatarControl user={user} />
        <dl className={classes.facts}>
          <div className={classes.fact}>
            <dt>{t('accountPage.emailStatus')}</dt>
            <dd>
              <Badge variant="dot" color={user.email_verified ? 'green' : 'yellow'} size="lg" radius="sm" className={classes.badge}>
                {user.email_verified ? t('accountPage.verified') : t('accountPage.unverified')}
              </Badge>
            </dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('shell.role')}</dt>
            <dd>{t(`roles.${user.role}`)}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('shell.twoFactor')}</dt>
            <dd>
              <Group gap="sm" wrap="wrap">
                <Badge variant="dot" color={user.google2fa_enabled ? 'green' : 'gray'} size="lg" radius="sm" className={classes.badge}>
                  {user.google2fa_enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}
                </Badge>
                <Anchor component={Link} to="/account/2fa" fz="sm" fw={600}>
                  {t('accountPage.manage')}
                </Anchor>
              </Group>
            </dd>
          </div>
        </dl>
        <Group gap="sm">
          <Button component={Link} to="/password" variant="default" leftSection={<IconKey size={16} aria-hidden />}>
            {t('nav.password')}
          </Button>
          <Button component={Link} to="/account/2fa" variant="default" leftSection={<IconShieldLock size={16} aria-hidden />}>
            {t('nav.twoFactor')}
          </Button>
        </Group>
      </Section>

      {/* Keyed by the user's stored state, so the form starts from what the server holds. */}
      <ProfileForm key={`${user.id}`} user={user} />
      <EmailChangeForm user={user} />
      <SessionsSection />
    </div>
  );
}

/** "Active sessions": each device with its IP and last activity; others can be signed out. */
function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const revoke = useSessionRevoke();
  const [revoking, setRevoking] = useState<string | null>(null);

  const onRevoke = (session: SessionListItem) => {
    setRevoking(session.id);
    revoke.mutate(session.id, {
      onSettled: () => {
        setRevoking(null);
      },
    });
  };

  return (
    <Section id="sessions" title={t('sessions.title')} description={t('sessions.description')}>
      {revoke.isSuccess ? (
        <FormAlert kind="success" onClose={() => revoke.reset()}>
          {translateServerText(revoke.data.message ?? t('sessions.revoked'))}
        </FormAlert>
      ) : null}
      {revoke.isError ? (
        <FormAlert kind="error" onClose={() => revoke.reset()}>
          {describeError(revoke.error, t)}
        </FormAlert>
      ) : null}

      {sessions.isPending ? (
        <Stack gap="sm" aria-busy="true">
          <Skeleton height={52} radius="md" />
          <Skeleton height={52} radius="md" />
        </Stack>
      ) : sessions.isError ? (
        <FormAlert kind="error">
          <Stack gap="xs" align="flex-start">
            <span>{describeError(sessions.error, t)}</span>
            <Button size="xs" variant="default" onClick={() => void sessions.refetch()}>
              {t('app.tryAgain')}
            </Button>
          </Stack>
        </FormAlert>
      ) : (
        <table className={accountClasses.table}>
          <thead>
            <tr>
              <th scope="col">{t('sessions.device')}</th>
              <th scope="col">{t('sessions.ip')}</th>
              <th scope="col">{t('sessions.signedIn')}</th>
              <th scope="col">{t('sessions.lastSeen')}</th>
              <th scope="col">
                <span className={accountClasses.visuallyHidden}>{t('sessions.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((session) => (
              <tr key={session.id} data-current={session.current || undefined}>
                <td data-label={t('sessions.device')}>
                  <span className={accountClasses.device}>
                    <IconDeviceDesktop size={18} aria-hidden className={accountClasses.deviceIcon} />
                    <span className={accountClasses.breakable}>{session.device}</span>
                    {session.current ? (
                      <Badge color="green" variant="light" radius="sm" className={accountClasses.currentBadge}>
                        {t('sessions.thisDevice')}
                      </Badge>
                    ) : null}
                  </span>
                </td>
                <td data-label={t('sessions.ip')}>
                  <span className={accountClasses.mono}>{session.ip ?? '—'}</span>
                </td>
                <td data-label={t('sessions.signedIn')}>
                  <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
                </td>
                <td data-label={t('sessions.lastSeen')}>
                  <time dateTime={session.last_seen_at} title={formatDateTime(session.last_seen_at)}>
                    {session.current ? t('sessions.now') : formatRelative(session.last_seen_at)}
                  </time>
                </td>
                <td className={accountClasses.actionCell}>
                  {session.current ? null : (
                    <Button
                      size="xs"
                      variant="default"
                      color="red"
                      leftSection={<IconLogout size={14} aria-hidden />}
                      loading={revoking === session.id}
                      disabled={revoking !== null && revoking !== session.id}
                      onClick={() => {
                        onRevoke(session);
                      }}
                    >
                      {t('sessions.signOut')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

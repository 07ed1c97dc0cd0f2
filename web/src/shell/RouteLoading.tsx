import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMarkAppLoading } from '../components/appLoading.ts';
import classes from './RouteLoading.module.css';

/** A page's code is loading: a quiet spinner, and the messages area shows it is (appLoading.ts). */
export function RouteLoading() {
  const { t } = useTranslation();
  useMarkAppLoading();
  return (
    <Center py={64} role="status" aria-label={t('app.loading')} className={classes.loading}>
      <Loader size="md" type="dots" />
    </Center>
  );
}

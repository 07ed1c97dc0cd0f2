import { useTranslation } from 'react-i18next';
import { FormAlert } from '../forms/FormAlert.tsx';
import { PageHeader } from './PageHeader.tsx';
import classes from './Pages.module.css';

/** What a page opened by URL shows to someone the policy table does not let use it. */
export function NotAllowedPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <div className={classes.page}>
      <PageHeader title={title} />
      <FormAlert kind="error">{t('errors.forbidden')}</FormAlert>
    </div>
  );
}

import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { tldPricePayloadSchema, type ShopSettings, type TldPrice } from '@berth/contracts';
import { useTldSave } from '../../../api/catalogue.ts';
import partnerClasses from '../Partner.module.css';
import { type Amount, toMajor, toMinor } from './draft.ts';
import { CatalogueForm } from './CatalogueForm.tsx';
import { EditDialog } from './EditDialog.tsx';
import { MoneyField } from './MoneyField.tsx';
import { useDraft } from './useDraft.ts';

interface TldDialogProps {
  /** The TLD to edit, 'new' for a new one, null when closed. */
  tld: TldPrice | 'new' | null;
  settings: ShopSettings;
  onClose: () => void;
}

/** Sells a new domain ending or changes its yearly prices (net; the gross is shown under each). */
export function TldDialog({ tld, settings, onClose }: TldDialogProps) {
  const { t } = useTranslation();
  return (
    <EditDialog
      editing={tld}
      title={(row) => (row ? t('catalogue.tlds.editTitle', { tld: row.tld }) : t('catalogue.tlds.createTitle'))}
      onClose={onClose}
    >
      {(row) => <TldForm tld={row} settings={settings} onDone={onClose} />}
    </EditDialog>
  );
}

const PRICES = ['register_price', 'renew_price', 'transfer_price'] as const;

interface Draft {
  tld: string;
  register_price: Amount;
  renew_price: Amount;
  transfer_price: Amount;
  active: boolean;
}

function draftOf(tld: TldPrice | null, currency: string): Draft {
  if (!tld) return { tld: '', register_price: '', renew_price: '', transfer_price: '', active: true };
  return {
    tld: tld.tld,
    register_price: toMajor(tld.register.net.amount, currency),
    renew_price: toMajor(tld.renew.net.amount, currency),
    transfer_price: toMajor(tld.transfer.net.amount, currency),
    active: tld.active,
  };
}

function TldForm({ tld, settings, onDone }: { tld: TldPrice | null; settings: ShopSettings; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useTldSave();
  const { currency, vat_rate: vatRate } = settings;
  const { draft, set, errors, formError, submitWith } = useDraft<Draft>(() => draftOf(tld, currency));
  const submit = submitWith({
    schema: tldPricePayloadSchema,
    payload: () => ({
      ...draft,
      // People write ".com"; the API takes the ending without its dot.
      tld: draft.tld.trim().replace(/^\./, ''),
      register_price: toMinor(draft.register_price, currency),
      renew_price: toMinor(draft.renew_price, currency),
      transfer_price: toMinor(draft.transfer_price, currency),
    }),
    send: (payload) => save.mutateAsync({ id: tld?.id ?? null, payload }),
    saved: t('catalogue.tlds.saved'),
    onSaved: onDone,
  });

  return (
    <CatalogueForm
      kind="tlds"
      editing={tld !== null}
      submit={submit}
      formError={formError}
      active={draft.active}
      onActive={(active) => set('active', active)}
      busy={save.isPending}
      onCancel={onDone}
    >
      <TextInput
        data-autofocus={tld ? undefined : true}
        className={partnerClasses.wide}
        label={t('catalogue.tlds.tld')}
        description={tld ? t('catalogue.tlds.tldFixed') : t('catalogue.tlds.tldHint')}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={draft.tld}
        onChange={(event) => {
          set('tld', event.currentTarget.value);
        }}
        readOnly={tld !== null}
        error={errors.tld}
        spellCheck={false}
        autoComplete="off"
        required
      />
      {PRICES.map((key, index) => (
        <MoneyField
          key={key}
          autoFocus={tld !== null && index === 0}
          label={t(`catalogue.tlds.${key}`)}
          value={draft[key]}
          onChange={(value) => {
            set(key, value);
          }}
          currency={currency}
          vatRate={vatRate}
          error={errors[key]}
          required
        />
      ))}
    </CatalogueForm>
  );
}

import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Text, TextInput } from '@mantine/core';
import { IconDiscount, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type ApiError } from '../../api/client.ts';
import { useCartPromoApply, useCartPromoRemove } from '../../api/shop.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import classes from '../Pages.module.css';
import shopClasses from './Shop.module.css';

/** The server's reason on the `code` field (expired, used up, not for these products...). */
function codeError(error: ApiError | null): string | null {
  if (!error) return null;
  const texts = error.fieldErrors.code;
  if (texts && texts.length > 0) return texts.map(translateServerText).join(' ');
  return null;
}

/** Applies a promo code to the cart, or shows the applied one with a way to remove it. */
export function PromoCodeForm({ promo }: { promo: { code: string; label: string } | null }) {
  const { t } = useTranslation();
  const apply = useCartPromoApply();
  const remove = useCartPromoRemove();
  const [code, setCode] = useState('');
  // An empty code is said under the field, not ignored in silence.
  const [empty, setEmpty] = useState(false);

  if (promo) {
    return (
      <Group justify="space-between" gap="sm" wrap="wrap" data-testid="applied-promo">
        <Group gap="xs">
          <IconDiscount size={18} aria-hidden />
          <Text fw={600} fz="sm">
            {promo.code}
          </Text>
          <Badge color="green" variant="light" radius="sm" className={classes.badge}>
            {t('shop.promo.off', { label: promo.label })}
          </Badge>
        </Group>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconX size={14} aria-hidden />}
          loading={remove.isPending}
          onClick={() => {
            remove.mutate(undefined);
          }}
        >
          {t('shop.promo.remove')}
        </Button>
        {remove.isError ? <FormAlert kind="error">{describeError(remove.error, t)}</FormAlert> : null}
      </Group>
    );
  }

  const fieldError = empty ? t('validation.required') : codeError(apply.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setEmpty(true);
      return;
    }
    apply.mutate(code.trim(), {
      onSuccess: () => {
        setCode('');
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className={shopClasses.searchRow}>
        <TextInput
          label={t('shop.promo.label')}
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setEmpty(false);
            if (apply.isError) apply.reset();
          }}
          autoComplete="off"
          spellCheck={false}
          error={fieldError}
        />
        <Button type="submit" variant="default" loading={apply.isPending}>
          {t('shop.promo.apply')}
        </Button>
      </div>
      {apply.isError && fieldError === null ? <FormAlert kind="error">{describeError(apply.error, t)}</FormAlert> : null}
    </form>
  );
}

import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { type Control, useController, useWatch } from 'react-hook-form';
import {
  GREASE_DEPTH_MAX,
  GREASE_DEPTH_MIN,
  GREASE_DEPTH_STEP,
  SERVICE_UPDATES,
} from '../../../../../common/constants.js';
import {
  type ServiceDetails,
  serviceDetailsSchema,
  serviceUpdateNeedsPart,
  type SessionEntry,
} from '../../../../../common/schemas/inspection.js';
import { FormInput, FormSelect } from '../../../components/form/bound-fields.js';
import { useSchemaForm } from '../../../components/form/use-schema-form.js';
import { Button } from '../../../components/ui/button.js';
import { Card } from '../../../components/ui/card.js';
import { FieldError } from '../../../components/ui/label.js';
import { cn } from '../../../lib/cn.js';
import { usePartCategories, useParts } from '../api/reference-data.js';
import { serviceUpdateLabel } from '../value-labels.js';
import { type ServiceEntryPatch, serviceEntryPatch, type ServiceFormValues, serviceValuesFrom } from './service-values.js';

function distinctOptions(values: readonly string[]) {
  return [...new Set(values)].map((value) => ({ value, label: value }));
}

/** The four answers as large radio rows; `onChosen` does what else an answer changes. */
function ServiceUpdateChoice({
  control,
  onChosen,
}: {
  control: Control<ServiceFormValues, unknown, ServiceDetails>;
  onChosen: () => void;
}) {
  const { i18n } = useLingui();
  const { field, fieldState } = useController({ control, name: 'serviceUpdate' });
  const error = fieldState.error?.message;
  return (
    <fieldset aria-describedby={error ? 'serviceUpdate-error' : undefined}>
      <legend className="flex items-baseline gap-1 text-base font-semibold text-slate-900">
        <Trans>Service Update</Trans>
        <span aria-hidden="true" className="font-bold text-red-700">
          *
        </span>
      </legend>
      <div className="mt-2 flex flex-col gap-2">
        {SERVICE_UPDATES.map((update, index) => (
          <label
            key={update}
            className={cn(
              'flex min-h-14 cursor-pointer items-center gap-3 rounded-lg border-2 px-3 text-base font-medium',
              field.value === update ? 'border-brand-700 bg-brand-50 text-slate-900' : 'border-slate-400 bg-white text-slate-900',
            )}
          >
            <input
              type="radio"
              name={field.name}
              value={update}
              // The form library focuses the first option when nothing is chosen.
              ref={index === 0 ? field.ref : undefined}
              checked={field.value === update}
              onChange={() => {
                field.onChange(update);
                onChosen();
              }}
              onBlur={field.onBlur}
              className="size-6 shrink-0 accent-brand-700"
            />
            {serviceUpdateLabel(update, i18n)}
          </label>
        ))}
      </div>
      <FieldError id="serviceUpdate-error" message={error} />
    </fieldset>
  );
}

/**
 * Step 2 of the Service flow. Hands the valid answers to onSave as the part of the session
 * entry they fill.
 */
export function ServiceDetailsForm({
  entry,
  onSave,
}: {
  entry: SessionEntry | null;
  onSave: (patch: ServiceEntryPatch) => void;
}) {
  const { t } = useLingui();
  const [initial] = useState(() => serviceValuesFrom(entry));
  // The contract's input type spells "nothing chosen" as null while the form holds ''; it reads
  // '' the same way at run time (an empty update is 'Please select a service update', empty
  // parts and depth are absent).
  const {
    control,
    setValue,
    handleSubmit,
    formState: { isSubmitted },
  } = useSchemaForm<ServiceFormValues, ServiceDetails>({ contract: serviceDetailsSchema, defaultValues: initial });
  const [serviceUpdate, partCategory, partItemName] = useWatch({ control, name: ['serviceUpdate', 'partCategory', 'partItemName'] });

  const needsPart = serviceUpdateNeedsPart(serviceUpdate);
  const categories = usePartCategories(needsPart);
  const parts = useParts(needsPart ? partCategory : '');

  const clear = (name: 'partCategory' | 'partItemName') =>
    setValue(name, '', { shouldDirty: true, shouldValidate: isSubmitted });

  const categoryHint = categories.isError ? t`Could not load the part categories. Check your connection and try again.` : undefined;
  const partsHint = parts.isError ? t`Could not load the item names. Check your connection and try again.` : undefined;

  return (
    <form noValidate onSubmit={handleSubmit((details) => onSave(serviceEntryPatch(details)))} className="flex flex-col gap-4">
      <Card>
        <ServiceUpdateChoice
          control={control}
          onChosen={() => {
            // A different answer needs different parts, if any.
            clear('partCategory');
            clear('partItemName');
          }}
        />
      </Card>

      {needsPart ? (
        <Card className="flex flex-col gap-4">
          <FormSelect
            control={control}
            name="partCategory"
            label={t`Category`}
            required
            options={distinctOptions(categories.data ?? [])}
            placeholder={categories.isLoading ? t`Loading categories...` : t`Select category`}
            hint={categoryHint}
            onChosen={() => clear('partItemName')}
          />
          {categories.isError ? (
            <Button variant="outline" onClick={() => void categories.refetch()} disabled={categories.isFetching}>
              <Trans>Retry</Trans>
            </Button>
          ) : null}
          <FormSelect
            control={control}
            name="partItemName"
            label={t`Item Name`}
            required
            options={distinctOptions((parts.data ?? []).map((p) => p.itemName))}
            placeholder={partCategory === '' ? t`Select a category first` : parts.isLoading ? t`Loading items...` : t`Select item name`}
            disabled={partCategory === '' && partItemName === ''}
            hint={partsHint}
          />
        </Card>
      ) : null}

      <Card>
        <FormInput
          control={control}
          name="greaseDepth"
          label={t`Grease Depth (cm)`}
          type="number"
          inputMode="decimal"
          min={GREASE_DEPTH_MIN}
          max={GREASE_DEPTH_MAX}
          step={GREASE_DEPTH_STEP}
        />
      </Card>

      <Button type="submit" size="lg" className="w-full">
        <Trans>Continue</Trans>
      </Button>
    </form>
  );
}

import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  GREASE_DEPTH_MAX,
  GREASE_DEPTH_MIN,
  GREASE_DEPTH_STEP,
  SERVICE_UPDATES,
} from '../../../../../common/constants.js';
import { type ServiceDetails, serviceUpdateNeedsPart, type SessionEntry } from '../../../../../common/schemas/inspection.js';
import { Button } from '../../../components/ui/button.js';
import { Card } from '../../../components/ui/card.js';
import { Input } from '../../../components/ui/input.js';
import { FieldError } from '../../../components/ui/label.js';
import { cn } from '../../../lib/cn.js';
import { usePartCategories, useParts } from '../api/reference-data.js';
import { withCurrent } from '../entry/curve-options.js';
import { describedBy, FieldShell, SelectField } from '../entry/form-controls.js';
import {
  SERVICE_UPDATE_LABELS,
  type ServiceEntryPatch,
  serviceEntryPatch,
  type ServiceFormValues,
  serviceResolver,
  serviceValuesFrom,
} from './service-values.js';

function distinctOptions(values: readonly string[]) {
  return [...new Set(values)].map((value) => ({ value, label: value }));
}

/**
 * Step 2 of the Service flow (docs/functional-requirements.md, 'Inspection flow: Service'). Hands the valid answers to onSave
 * as the part of the session entry they fill.
 */
export function ServiceDetailsForm({
  entry,
  onSave,
}: {
  entry: SessionEntry | null;
  onSave: (patch: ServiceEntryPatch) => void;
}) {
  const [initial] = useState(() => serviceValuesFrom(entry));
  const {
    control,
    setValue,
    handleSubmit,
    formState: { errors, isSubmitted },
  } = useForm<ServiceFormValues, unknown, ServiceDetails>({ resolver: serviceResolver, defaultValues: initial });
  const [serviceUpdate, partCategory] = useWatch({ control, name: ['serviceUpdate', 'partCategory'] });

  const needsPart = serviceUpdateNeedsPart(serviceUpdate);
  const categories = usePartCategories(needsPart);
  const parts = useParts(needsPart ? partCategory : '');

  const clear = (name: 'partCategory' | 'partItemName') =>
    setValue(name, '', { shouldDirty: true, shouldValidate: isSubmitted });

  const categoryHint = categories.isError ? 'Could not load the part categories. Check your connection and try again.' : undefined;
  const partsHint = parts.isError ? 'Could not load the item names. Check your connection and try again.' : undefined;

  return (
    <form noValidate onSubmit={handleSubmit((details) => onSave(serviceEntryPatch(details)))} className="flex flex-col gap-4">
      <Card>
        <Controller
          control={control}
          name="serviceUpdate"
          render={({ field }) => (
            <fieldset aria-describedby={errors.serviceUpdate ? 'serviceUpdate-error' : undefined}>
              <legend className="flex items-baseline gap-1 text-base font-semibold text-slate-900">
                Service Update
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
                        // A different answer needs different parts, if any: changing it clears the category and item.
                        clear('partCategory');
                        clear('partItemName');
                      }}
                      onBlur={field.onBlur}
                      className="size-6 shrink-0 accent-brand-700"
                    />
                    {SERVICE_UPDATE_LABELS[update]}
                  </label>
                ))}
              </div>
              <FieldError id="serviceUpdate-error" message={errors.serviceUpdate?.message} />
            </fieldset>
          )}
        />
      </Card>

      {needsPart ? (
        <Card className="flex flex-col gap-4">
          <Controller
            control={control}
            name="partCategory"
            render={({ field }) => (
              <SelectField
                id="partCategory"
                label="Category"
                required
                ref={field.ref}
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  clear('partItemName');
                }}
                onBlur={field.onBlur}
                options={withCurrent(distinctOptions(categories.data ?? []), field.value)}
                placeholder={categories.isLoading ? 'Loading categories...' : 'Select category'}
                hint={categoryHint}
                error={errors.partCategory?.message}
              />
            )}
          />
          {categories.isError ? (
            <Button variant="outline" onClick={() => void categories.refetch()} disabled={categories.isFetching}>
              Retry
            </Button>
          ) : null}
          <Controller
            control={control}
            name="partItemName"
            render={({ field }) => (
              <SelectField
                id="partItemName"
                label="Item Name"
                required
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                options={withCurrent(distinctOptions((parts.data ?? []).map((p) => p.itemName)), field.value)}
                placeholder={
                  partCategory === '' ? 'Select a category first' : parts.isLoading ? 'Loading items...' : 'Select item name'
                }
                disabled={partCategory === '' && field.value === ''}
                hint={partsHint}
                error={errors.partItemName?.message}
              />
            )}
          />
        </Card>
      ) : null}

      <Card>
        <Controller
          control={control}
          name="greaseDepth"
          render={({ field }) => (
            <FieldShell id="greaseDepth" label="Grease Depth (cm)" error={errors.greaseDepth?.message}>
              <Input
                id="greaseDepth"
                ref={field.ref}
                type="number"
                inputMode="decimal"
                min={GREASE_DEPTH_MIN}
                max={GREASE_DEPTH_MAX}
                step={GREASE_DEPTH_STEP}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                invalid={errors.greaseDepth !== undefined}
                aria-describedby={describedBy('greaseDepth', undefined, errors.greaseDepth?.message)}
              />
            </FieldShell>
          )}
        />
      </Card>

      <Button type="submit" size="lg" className="w-full">
        Continue
      </Button>
    </form>
  );
}

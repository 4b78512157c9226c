import { useLingui } from '@lingui/react/macro';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { type LoginRequest, loginRequestSchema, loginResponseSchema } from '../../../../common/schemas/auth.js';
import { Button } from '../../components/ui/button.js';
import { Card } from '../../components/ui/card.js';
import { Input } from '../../components/ui/input.js';
import { FieldError, Label } from '../../components/ui/label.js';
import { toast } from '../../components/ui/toast-store.js';
import { apiRequest } from '../../lib/api-client.js';
import { withScreenTexts } from '../../lib/i18n.js';
import { useAuth } from './auth-context.js';
import { landingPathFor } from './home-path.js';
import { loginFailureMessage } from './login-failure.js';

// Only demonstration servers show it: outside the first download, with its texts.
const DemoAccountsCard = lazy(() =>
  withScreenTexts(() => import('./demo-accounts-card.js'))().then((m) => ({ default: m.DemoAccountsCard })),
);

async function postLogin(body: LoginRequest) {
  const res = await apiRequest('POST', '/api/auth/login', body);
  return loginResponseSchema.parse(await res.json()).user;
}

export function LoginForm() {
  const { t } = useLingui();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<LoginRequest>({
    // The same schema the server validates the body with.
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { employeeId: '', password: '' },
  });

  const login = useMutation({
    mutationFn: postLogin,
    onSuccess: (user) => {
      signIn(user);
      // A password someone else chose is replaced first.
      navigate(landingPathFor(user), { replace: true });
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: t`Login Failed`, description: loginFailureMessage(error) });
    },
  });
  const busy = login.isPending;

  const pickDemoAccount = (employeeId: string, password: string) => {
    setValue('employeeId', employeeId, { shouldValidate: true });
    setValue('password', password, { shouldValidate: true });
  };

  return (
    <>
      <Card aria-label={t`Sign in`}>
        <form noValidate onSubmit={handleSubmit((values) => login.mutate(values))} className="flex flex-col gap-4">
          <div>
            <Label htmlFor="employeeId">{t`Employee ID`}</Label>
            <Input
              id="employeeId"
              type="text"
              placeholder={t`Enter your Employee ID`}
              autoComplete="username"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              aria-required="true"
              aria-describedby={errors.employeeId ? 'employeeId-error' : undefined}
              invalid={errors.employeeId !== undefined}
              className="mt-1"
              {...register('employeeId')}
            />
            <FieldError id="employeeId-error" message={errors.employeeId?.message} />
          </div>
          <div>
            <Label htmlFor="password">{t`Password`}</Label>
            <Input
              id="password"
              type="password"
              autoComplete="current-password"
              aria-required="true"
              aria-describedby={errors.password ? 'password-error' : undefined}
              invalid={errors.password !== undefined}
              className="mt-1"
              {...register('password')}
            />
            <FieldError id="password-error" message={errors.password?.message} />
          </div>
          <Button type="submit" size="lg" disabled={busy} aria-busy={busy || undefined}>
            {busy ? t`Signing In...` : t`Sign In`}
          </Button>
        </form>
      </Card>
      <Suspense fallback={null}>
        <DemoAccountsCard onPick={pickDemoAccount} />
      </Suspense>
    </>
  );
}

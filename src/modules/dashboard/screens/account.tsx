import type { FastifyInstance } from 'fastify';
import { FieldErrors } from '../people/service.js';
import { ErrorSummary, type Errors, Field, Notice, PostForm } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, requireOrg, setSessionCookie } from '../session.js';
import { formOf, text } from './form-body.js';

const LABELS = { firstName: 'First name', lastName: 'Last name', currentPassword: 'Current password', newPassword: 'New password' };
const DONE: Record<string, string> = { name: 'Your name is saved.', password: 'Your password is changed. Every other session has been signed out.' };

function Account(props: { ctx: OrgContext; values: { firstName?: string; lastName?: string }; errors: Errors; done?: string | undefined }) {
  const { ctx, values, errors } = props;
  return (
    <Shell ctx={ctx} title="Your account" current="account">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ErrorSummary errors={errors} labels={LABELS} />
      <p>Signed in as {ctx.session.user.email}.</p>
      <h2 id="name-heading">Your name</h2>
      <PostForm action={`${ctx.base}/account/name`} csrf={ctx.session.csrf} label="Your name">
        <Field
          name="firstName"
          label="First name"
          value={values.firstName ?? ctx.session.user.firstName ?? ''}
          errors={errors}
          autoComplete="given-name"
          maxLength={200}
        />
        <Field
          name="lastName"
          label="Last name"
          value={values.lastName ?? ctx.session.user.lastName ?? ''}
          errors={errors}
          autoComplete="family-name"
          maxLength={200}
        />
        <button type="submit">Save name</button>
      </PostForm>
      <h2>Password</h2>
      <PostForm action={`${ctx.base}/account/password`} csrf={ctx.session.csrf} label="Change password">
        <Field name="currentPassword" label="Current password" type="password" errors={errors} autoComplete="current-password" maxLength={200} />
        <Field
          name="newPassword"
          label="New password"
          type="password"
          hint="At least 12 characters. Changing it signs you out everywhere else."
          errors={errors}
          autoComplete="new-password"
          maxLength={200}
        />
        <button type="submit">Change password</button>
      </PostForm>
    </Shell>
  );
}

/** The signed-in person's own name and password. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const people = app.services.people;
  const config = { auth: 'none' as const };
  app.get('/account', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    return sendHtml(reply, <Account ctx={ctx} values={{}} errors={{}} done={(request.query as { done?: string }).done} />);
  });
  app.post('/account/name', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const form = formOf(request);
    const values = { firstName: text(form, 'firstName', 500), lastName: text(form, 'lastName', 500) };
    try {
      await people.changeName(ctx.session.user.id, values);
    } catch (err) {
      if (err instanceof FieldErrors) return sendHtml(reply, <Account ctx={ctx} values={values} errors={err.fields} />, 422);
      throw err;
    }
    return seeOther(reply, `${ctx.base}/account?done=name`);
  });
  app.post('/account/password', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request);
    const form = formOf(request);
    try {
      const token = await people.changePassword(ctx.session.user.id, {
        currentPassword: text(form, 'currentPassword', 500),
        newPassword: text(form, 'newPassword', 500),
      });
      setSessionCookie(app, reply, token);
    } catch (err) {
      if (err instanceof FieldErrors) return sendHtml(reply, <Account ctx={ctx} values={{}} errors={err.fields} />, 422);
      throw err;
    }
    return seeOther(reply, `${ctx.base}/account?done=password`);
  });
}

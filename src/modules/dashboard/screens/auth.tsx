import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.js';
import { FieldErrors, INVITATION_UNUSABLE, SIGN_IN_FAILED } from '../people/service.js';
import { ErrorSummary, type Errors, Field, Problem } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Plain } from '../render/shell.js';
import { clearSessionCookie, requireSession, setSessionCookie } from '../session.js';
import { formOf } from './form-body.js';

const INVITE_LABELS = { firstName: 'First name', lastName: 'Last name', password: 'Password' };

function SignIn(props: { email?: string; error?: string; next?: string }) {
  return (
    <Plain title="Sign in">
      <Problem text={props.error} />
      <form method="post" action="/dashboard/sign-in" novalidate>
        {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
        <Field name="email" label="Email" type="email" value={props.email} autoComplete="username" required maxLength={254} />
        <Field name="password" label="Password" type="password" autoComplete="current-password" required maxLength={200} />
        <button type="submit">Sign in</button>
      </form>
    </Plain>
  );
}

function Invitation(props: {
  token: string;
  organizationName: string;
  email: string;
  hasAccount: boolean;
  values: { firstName?: string; lastName?: string };
  errors: Errors;
}) {
  const action = `/dashboard/invitations/${props.token}`;
  return (
    <Plain title={`Join ${props.organizationName}`}>
      <ErrorSummary errors={props.errors} labels={INVITE_LABELS} />
      <p>
        You are invited as <strong>{props.email}</strong>.
      </p>
      <form method="post" action={action} novalidate>
        {props.hasAccount ? (
          <>
            <p>You already have an account: enter its password to join.</p>
            <Field name="password" label="Password" type="password" autoComplete="current-password" errors={props.errors} required />
            <button type="submit">Join organization</button>
          </>
        ) : (
          <>
            <Field
              name="firstName"
              label="First name"
              value={props.values.firstName}
              autoComplete="given-name"
              errors={props.errors}
              required
              maxLength={200}
            />
            <Field name="lastName" label="Last name" value={props.values.lastName} autoComplete="family-name" errors={props.errors} required maxLength={200} />
            <Field
              name="password"
              label="Password"
              type="password"
              autoComplete="new-password"
              hint="At least 12 characters; a few unrelated words are easy to remember and hard to guess."
              errors={props.errors}
              required
              maxLength={200}
            />
            <button type="submit">Create account</button>
          </>
        )}
      </form>
    </Plain>
  );
}

/** Only a path of the dashboard itself: never an open redirect. */
const safeNext = (next: string | null | undefined) => (next && /^\/dashboard(\/[\w\-/]*)?(\?[\w=&%-]*)?$/.test(next) ? next : '/dashboard');

/** Sign-in, sign-out, the invitation page, the organization switch and the home redirect. */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const people = app.services.people;
  const open = { auth: 'none' as const, dashboardPublic: true };

  app.get('/', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    const session = request.dashboardSession;
    if (!session) return seeOther(reply, '/dashboard/sign-in');
    const [first] = await people.memberships(session.user.id);
    if (!first)
      return sendHtml(
        reply,
        <Plain title="No organization">{<p>You are not a member of any organization any more. Ask an admin to invite you again.</p>}</Plain>,
      );
    return seeOther(reply, `/dashboard/o/${first.organizationId}/estates`);
  });

  app.get('/sign-in', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    const next = (request.query as { next?: string }).next;
    return sendHtml(reply, <SignIn next={next ? safeNext(next) : undefined} />);
  });

  app.post('/sign-in', { schema: { hide: true }, config: open }, async (request, reply) => {
    const form = formOf(request);
    const email = (form.get('email') ?? '').slice(0, 254);
    try {
      const token = await people.signIn(email, form.get('password') ?? '', request.ip);
      setSessionCookie(app, reply, token);
      return seeOther(reply, safeNext(form.get('next')));
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 401) return sendHtml(reply, <SignIn email={email} error={SIGN_IN_FAILED} />, 401);
      if (err instanceof AppError && err.statusCode === 429) {
        reply.header('retry-after', String(err.retryAfterSeconds ?? 900));
        return sendHtml(reply, <SignIn email={email} error={err.message} />, 429);
      }
      throw err;
    }
  });

  app.post('/sign-out', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    const session = requireSession(request);
    await people.signOut(session.id);
    clearSessionCookie(app, reply);
    return seeOther(reply, '/dashboard/sign-in');
  });

  app.get('/switch', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    const session = requireSession(request);
    const wanted = String((request.query as { organization?: string }).organization ?? '');
    const found = (await people.memberships(session.user.id)).find((m) => m.organizationId === wanted);
    if (!found) throw new AppError('notFound', `Organization with id ${wanted} not found`);
    return seeOther(reply, `/dashboard/o/${found.organizationId}/estates`);
  });

  const invitationPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: { firstName?: string; lastName?: string },
    errors: Errors,
    status: number,
  ) => {
    const token = (request.params as { token: string }).token;
    const invitation = await people.invitation(token);
    if (!invitation) return sendHtml(reply, <Plain title="Invitation">{<p>{INVITATION_UNUSABLE}</p>}</Plain>, 404);
    return sendHtml(
      reply,
      <Invitation
        token={token}
        organizationName={invitation.organizationName}
        email={invitation.email}
        hasAccount={invitation.hasAccount}
        values={values}
        errors={errors}
      />,
      status,
    );
  };

  app.get('/invitations/:token', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => invitationPage(request, reply, {}, {}, 200));

  app.post('/invitations/:token', { schema: { hide: true }, config: open }, async (request, reply) => {
    const form = formOf(request);
    const values = { firstName: form.get('firstName') ?? '', lastName: form.get('lastName') ?? '' };
    try {
      const accepted = await people.acceptInvitation((request.params as { token: string }).token, { ...values, password: form.get('password') ?? '' });
      setSessionCookie(app, reply, accepted.token);
      return seeOther(reply, `/dashboard/o/${accepted.organizationId}/estates`);
    } catch (err) {
      if (err instanceof FieldErrors) return invitationPage(request, reply, values, err.fields, 422);
      if (err instanceof AppError && err.statusCode === 429) {
        reply.header('retry-after', String(err.retryAfterSeconds ?? 900));
        return invitationPage(request, reply, values, { password: err.message }, 429);
      }
      if (err instanceof AppError && err.statusCode === 404) return sendHtml(reply, <Plain title="Invitation">{<p>{INVITATION_UNUSABLE}</p>}</Plain>, 404);
      throw err;
    }
  });
}

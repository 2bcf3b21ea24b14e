import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../errors.js';
import { DASHBOARD_ROLES, FieldErrors } from '../people/service.js';
import { ErrorSummary, type Errors, Field, Notice, PostForm, Problem, Select } from '../render/forms.js';
import { seeOther, sendHtml } from '../render/html.js';
import { Shell } from '../render/shell.js';
import { type OrgContext, requireOrg } from '../session.js';
import { formOf, refusal, text } from './form-body.js';

const ROLE_OPTIONS = DASHBOARD_ROLES.map((r): [string, string] => [r, r[0]!.toUpperCase() + r.slice(1)]);
const LABELS = { email: 'Email', role: 'Role' };
const DONE: Record<string, string> = {
  role: 'The role is changed.',
  removed: 'The member is removed from the organization.',
  revoked: 'The invitation is withdrawn; its link no longer works.',
};

type Members = Awaited<ReturnType<FastifyInstance['services']['people']['listMembers']>>;
type Invitations = Awaited<ReturnType<FastifyInstance['services']['people']['listInvitations']>>;

function MembersScreen(props: {
  ctx: OrgContext;
  members: Members;
  invitations: Invitations;
  errors: Errors;
  values: { email?: string; role?: string };
  problem?: string | undefined;
  done?: string | undefined;
  link?: string | undefined;
}) {
  const { ctx } = props;
  const date = (iso: string) => new Date(iso).toISOString().slice(0, 10);
  return (
    <Shell ctx={ctx} title="Members" current="members">
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <Problem text={props.problem} />
      {props.link ? (
        <div class="notice">
          <p>Invitation created. Send this link to the person; it works once, for 7 days, and is not shown again:</p>
          <p>
            <code>{props.link}</code>
          </p>
        </div>
      ) : null}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Members of {ctx.org.organizationName}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Remove</th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((m) => {
              const name = [m.firstName, m.lastName].filter(Boolean).join(' ') || '—';
              return (
                <tr key={m.id}>
                  <td>{name}</td>
                  <td>{m.email}</td>
                  <td>
                    <PostForm action={`${ctx.base}/members/${m.id}/role`} csrf={ctx.session.csrf} class="inline">
                      <label class="visually-hidden" for={`role-${m.id}`}>
                        Role of {name}
                      </label>
                      <select id={`role-${m.id}`} name="role">
                        {ROLE_OPTIONS.map(([value, label]) => (
                          <option key={value} value={value} selected={value === m.role}>
                            {label}
                          </option>
                        ))}
                      </select>
                      <button type="submit" class="secondary">
                        Change role<span class="visually-hidden"> of {name}</span>
                      </button>
                    </PostForm>
                  </td>
                  <td>
                    <PostForm action={`${ctx.base}/members/${m.id}/remove`} csrf={ctx.session.csrf} class="inline">
                      <button type="submit" class="danger">
                        Remove<span class="visually-hidden"> {name}</span>
                      </button>
                    </PostForm>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <h2>Invite someone</h2>
      <ErrorSummary errors={props.errors} labels={LABELS} />
      <PostForm action={`${ctx.base}/invitations`} csrf={ctx.session.csrf} label="Invite someone">
        <Field name="email" label="Email" type="email" value={props.values.email} errors={props.errors} maxLength={254} />
        <Select name="role" label="Role" options={ROLE_OPTIONS} value={props.values.role ?? 'editor'} errors={props.errors} />
        <button type="submit">Invite</button>
      </PostForm>
      <h2>Open invitations</h2>
      {props.invitations.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul>
          {props.invitations.map((i) => (
            <li key={i.id}>
              {i.email} ({i.role}), valid until {date(i.expiresAt)}{' '}
              <PostForm action={`${ctx.base}/invitations/${i.id}/revoke`} csrf={ctx.session.csrf} class="inline">
                <button type="submit" class="secondary">
                  Withdraw<span class="visually-hidden"> the invitation of {i.email}</span>
                </button>
              </PostForm>
            </li>
          ))}
        </ul>
      )}
    </Shell>
  );
}

/** Admins: members (role, removal; never the last admin) and invitations. */
export async function memberRoutes(app: FastifyInstance): Promise<void> {
  const people = app.services.people;
  const config = { auth: 'none' as const };
  const render = async (
    reply: FastifyReply,
    ctx: OrgContext,
    extra: { errors?: Errors; values?: { email?: string; role?: string }; problem?: string; done?: string; link?: string },
    status = 200,
  ) => {
    const [members, invitations] = await Promise.all([people.listMembers(ctx.org.organizationId), people.listInvitations(ctx.org.organizationId)]);
    return sendHtml(
      reply,
      <MembersScreen
        ctx={ctx}
        members={members}
        invitations={invitations}
        errors={extra.errors ?? {}}
        values={extra.values ?? {}}
        problem={extra.problem}
        done={extra.done}
        link={extra.link}
      />,
      status,
    );
  };
  /** A refusal of the service (404, 409) shown on the screen in its words, with its status. */
  const refused = (reply: FastifyReply, ctx: OrgContext, err: unknown) => {
    const known = refusal(err);
    if (known && (known.statusCode === 409 || known.statusCode === 404)) return render(reply, ctx, { problem: known.message }, known.statusCode);
    throw err;
  };

  app.get('/members', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    return render(reply, ctx, { done: (request.query as { done?: string }).done });
  });

  app.post('/members/:membershipId/role', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    try {
      await people.changeRole(ctx.org.organizationId, (request.params as { membershipId: string }).membershipId, text(formOf(request), 'role', 20));
    } catch (err) {
      if (err instanceof FieldErrors) return render(reply, ctx, { problem: err.fields.role }, 422);
      return refused(reply, ctx, err);
    }
    return seeOther(reply, `${ctx.base}/members?done=role`);
  });

  app.post('/members/:membershipId/remove', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    try {
      await people.removeMember(ctx.org.organizationId, (request.params as { membershipId: string }).membershipId);
    } catch (err) {
      return refused(reply, ctx, err);
    }
    return seeOther(reply, `${ctx.base}/members?done=removed`);
  });

  app.post('/invitations', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    const form = formOf(request);
    const values = { email: text(form, 'email', 300), role: text(form, 'role', 20) };
    try {
      const invitation = await people.invite(ctx.org.organizationId, values, ctx.session.user.id);
      // Shown once on this answer (not after a redirect: the link is a secret and stays out of the history).
      return render(reply, ctx, { link: invitation.url }, 201);
    } catch (err) {
      if (err instanceof FieldErrors) return render(reply, ctx, { errors: err.fields, values }, 422);
      throw err;
    }
  });

  app.post('/invitations/:invitationId/revoke', { schema: { hide: true }, config }, async (request, reply) => {
    const ctx = await requireOrg(app, request, 'admin');
    try {
      await people.revokeInvitation(ctx.org.organizationId, (request.params as { invitationId: string }).invitationId);
    } catch (err) {
      return refused(reply, ctx, err);
    }
    return seeOther(reply, `${ctx.base}/members?done=revoked`);
  });
}

import type { ComponentChildren } from 'preact';
import { navigation } from '../screens/registry.js';
import type { OrgContext } from '../session.js';
import { CSRF_FIELD } from '../session.js';
import { Document } from './html.js';

/**
 * A signed-in screen: the top bar (organization switcher when there are several, the person, sign-out),
 * the navigation landmark "Dashboard" listing the screens the role may open, and the screen's content.
 */
export function Shell(props: { ctx: OrgContext; title: string; current: string; children: ComponentChildren }) {
  const { ctx } = props;
  const user = ctx.session.user;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  return (
    <Document title={props.title}>
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">{ctx.org.organizationName}</span>
        {ctx.memberships.length > 1 ? (
          <form method="get" action="/dashboard/switch">
            <label for="organization-switch">Organization</label>
            <select id="organization-switch" name="organization">
              {ctx.memberships.map((m) => (
                <option key={m.organizationId} value={m.organizationId} selected={m.organizationId === ctx.org.organizationId}>
                  {m.organizationName}
                </option>
              ))}
            </select>
            <button type="submit" class="secondary">
              Switch
            </button>
          </form>
        ) : null}
        <span>
          <a href={`${ctx.base}/account`}>{name}</a> <span class="muted-inverse">({ctx.org.role})</span>
        </span>
        <form method="post" action="/dashboard/sign-out">
          <input type="hidden" name={CSRF_FIELD} value={ctx.session.csrf} />
          <button type="submit" class="secondary">
            Sign out
          </button>
        </form>
      </header>
      <div class="layout">
        <nav class="side" aria-label="Dashboard">
          <ul>
            {navigation(ctx).map((item) => (
              <li key={item.id}>
                <a href={item.href} aria-current={item.id === props.current ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="content">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </div>
    </Document>
  );
}

/** A screen outside any organization (sign-in, the invitation page, an error): one narrow column. */
export function Plain(props: { title: string; children: ComponentChildren }) {
  return (
    <Document title={props.title}>
      <main class="narrow" id="content">
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </Document>
  );
}

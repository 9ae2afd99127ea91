import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { BASENAME, pageAfterSignIn, signInSearch } from './after-sign-in';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useSession } from './session';
import { SignInPage, SignUpPage } from './pages/AuthPages';
import { NotFoundPage } from './pages/NotFoundPage';

// Each page is its own chunk: the sign-in page does not download the charts, and a page loads only what it uses.
const LinksPage = lazy(() => import('./pages/LinksPage').then((m) => ({ default: m.LinksPage })));
const LinkPage = lazy(() => import('./pages/LinkPage').then((m) => ({ default: m.LinkPage })));
const ImportPage = lazy(() => import('./pages/ImportPage').then((m) => ({ default: m.ImportPage })));
const FoldersPage = lazy(() => import('./pages/FoldersPage').then((m) => ({ default: m.FoldersPage })));
const TagsPage = lazy(() => import('./pages/TagsPage').then((m) => ({ default: m.TagsPage })));
const UtmTemplatesPage = lazy(() => import('./pages/UtmTemplatesPage').then((m) => ({ default: m.UtmTemplatesPage })));
const DomainsPage = lazy(() => import('./pages/DomainsPage').then((m) => ({ default: m.DomainsPage })));
const WebhooksPage = lazy(() => import('./pages/WebhooksPage').then((m) => ({ default: m.WebhooksPage })));
const KeysPage = lazy(() => import('./pages/KeysPage').then((m) => ({ default: m.KeysPage })));
const AccountPage = lazy(() => import('./pages/AccountPage').then((m) => ({ default: m.AccountPage })));
const AdminPage = lazy(() => import('./pages/AdminPage').then((m) => ({ default: m.AdminPage })));
const ResetPasswordPage = lazy(() => import('./pages/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })));

function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading />;
  // The page asked for rides along in the sign-in page's address, so signing in leads back to it; not after the
  // person signed out here themselves.
  if (state.status === 'signed-out') return <Navigate to={{ pathname: '/sign-in', search: state.byChoice ? '' : signInSearch(location) }} replace />;
  return <>{children}</>;
}

/**
 * The sign-in and sign-up pages. Once signed in (already, or by these pages' forms) this is the one place that leads
 * on: to the page asked for before signing in, when it is the dashboard's own, else the links.
 */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'signed-in') return <Navigate to={pageAfterSignIn(location.search)} replace />;
  return <>{children}</>;
}

export function App() {
  return (
    <BrowserRouter basename={BASENAME}>
      <Routes>
        <Route path="/sign-in" element={<SignedOutOnly><SignInPage /></SignedOutOnly>} />
        <Route path="/sign-up" element={<SignedOutOnly><SignUpPage /></SignedOutOnly>} />
        {/* Whoever holds a reset link may use it, signed in as someone else or not: the link decides the account. */}
        <Route path="/reset-password" element={<Suspense fallback={<Loading />}><ResetPasswordPage /></Suspense>} />
        <Route element={<RequireSession><Layout /></RequireSession>}>
          <Route index element={<Navigate to="/links" replace />} />
          <Route path="/links" element={<LinksPage />} />
          {/* A short path may hold a slash (namespace/slug): the rest of the address is the link's path. */}
          <Route path="/links/*" element={<LinkPage />} />
          <Route path="/import" element={<ImportPage />} />
          <Route path="/folders" element={<FoldersPage />} />
          <Route path="/tags" element={<TagsPage />} />
          <Route path="/utm-templates" element={<UtmTemplatesPage />} />
          <Route path="/domains" element={<DomainsPage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/keys" element={<KeysPage />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/admin" element={<AdminPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}

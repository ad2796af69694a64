import { verifySessionDetailView, verifySessionView } from "../domain/session-views.ts";
import {
  verifySessionCreate,
  verifySessionListQuery,
  verifySessionPatch,
} from "../schemas/sessions.ts";
import { sessionRoutes } from "./session-routes.ts";

export const verifySessionRoutes = sessionRoutes({
  kind: "verify",
  create: verifySessionCreate,
  patch: verifySessionPatch,
  listQuery: verifySessionListQuery,
  summaryView: (env, { session, keys }) => verifySessionView(env, session, keys),
  detailView: verifySessionDetailView,
});

import { collectSessionDetailView, collectSessionView } from "../domain/session-views.ts";
import {
  collectSessionCreate,
  collectSessionListQuery,
  collectSessionPatch,
} from "../schemas/sessions.ts";
import { sessionRoutes } from "./session-routes.ts";

export const collectSessionRoutes = sessionRoutes({
  kind: "collect",
  create: collectSessionCreate,
  patch: collectSessionPatch,
  listQuery: collectSessionListQuery,
  summaryView: (env, { session }) => collectSessionView(env, session),
  detailView: collectSessionDetailView,
});

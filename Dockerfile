# One image per service: docker build --build-arg SERVICE=employees -t travel-expense-employees .
# (No Docker engine on the development machines; CI builds images where one exists.)
FROM node:20-bookworm-slim AS build
ARG SERVICE
WORKDIR /src
RUN npm install -g pnpm@9.15.9
COPY . .
RUN pnpm install --frozen-lockfile \
 && node_modules/.bin/tsx scripts/build.ts "${SERVICE}" \
 && pnpm deploy --filter "@travel/${SERVICE}" --prod /out \
 && rm -rf /out/src /out/test \
 && cp -r "services/${SERVICE}/dist" /out/dist

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /out /app
USER 1000
# The API port and the ops port (/healthz, /readyz, /metrics): each service's own are set by the chart
# (PORT, OPS_PORT); these are the gateway's defaults (decision 0097).
EXPOSE 8080 9080
CMD ["node", "dist/main.js"]

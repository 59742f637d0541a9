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
ARG SERVICE
ENV NODE_ENV=production
# --- receipts only (issue 37, decision 0198): the reading engine is Tesseract with the five markets'
# languages, zbarimg for the fiscal QR codes and poppler for PDFs, all Debian packages; nothing is
# downloaded at run time. Other services' images stay without them.
RUN if [ "${SERVICE}" = "receipts" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-hrv tesseract-ocr-slv \
         tesseract-ocr-slk tesseract-ocr-ces tesseract-ocr-pol tesseract-ocr-deu tesseract-ocr-eng \
         zbar-tools poppler-utils \
      && rm -rf /var/lib/apt/lists/*; \
    fi
WORKDIR /app
COPY --from=build /out /app
# Ids no user or group of a node has (the chart runs the pods as the same, decision 0222).
USER 10001:10001
# The API port and the ops port (/healthz, /readyz, /metrics): each service's own are set by the chart
# (PORT, OPS_PORT); these are the gateway's defaults (decision 0097).
EXPOSE 8080 9080
CMD ["node", "dist/main.js"]

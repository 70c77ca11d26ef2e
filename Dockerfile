# wolfden in a container: one static binary (no cgo: the SQLite driver is
# pure Go; the web client is embedded), on a base with no shell, run as a
# user who is not root, its database and its certificates in the volume
# /data. How a club runs it: docs/server.md, "Host wolfden for your club".
#
#   docker build -t wolfden .
#   docker run -d --name wolfden -v wolfden:/data -p 8080:8080 wolfden                    # plain HTTP on :8080
#   docker run -d --name wolfden -v wolfden:/data -p 443:443 -p 80:80 \
#     wolfden serve --domain wolf.example.org --acme-email you@example.org              # HTTPS by Let's Encrypt
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/wolfden ./cmd/wolfden && mkdir /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/wolfden /wolfden
# The volume's first contents, owned by the user who writes there.
COPY --from=build --chown=65532:65532 /out/data /data
# The database, and beside it (certs/) the ACME account and certificates.
ENV WOLFDEN_DB=/data/wolfden.db
VOLUME /data
# 8080: plain HTTP (the default command); 443 and 80: with --domain.
EXPOSE 8080 443 80
USER nonroot:nonroot
ENTRYPOINT ["/wolfden"]
CMD ["serve", "--addr", "0.0.0.0:8080"]

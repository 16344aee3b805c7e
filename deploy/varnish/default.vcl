vcl 4.1;
#
# The reference CDN in front of the site's containers (README "Where users outgrow one
# machine"): Varnish 7 with Debian's varnish-modules (xkey). The servers decide what may be kept
# (api/cdn/cache-policy.ts); this file only follows what they say:
#
#   Cache-Control: public, max-age=0, must-revalidate, s-maxage=86400
#   Surrogate-Control: max-age=86400, stale-while-revalidate=30, stale-if-error=86400
#       pages, /theme.css, public API lists: kept a day, purged by key the moment they change; the
#       stale windows are in Surrogate-Control (read here, removed before the client sees it)
#   Cache-Control: public, max-age=31536000, immutable
#       hashed /_astro/* assets
#   anything without `public`, or with no-store/private: never kept
#
# Kept responses name what they show in `Surrogate-Key` (space separated); a container purges with
#   PURGE / HTTP/1.1
#   xkey-purge: posts post:my-slug
# and gets 200 with `xkey-purged: N` (and N as the body): xkey's count, each object once per named key
# it carries. Only addresses in the `purgers` or `firm_purgers` ACL may purge (403 otherwise).
#
# Backends (the containers, their health probes, the `firm` director built by `sub
# firm_backends_init`, and the `firm_purgers` ACL of who else may purge) come from backends.vcl,
# found on vcl_path: copy backends.vcl.example beside this file and list your containers, or start
# varnishd with -p vcl_path=<dir with your backends.vcl>:<this dir>. scripts/varnish.ts does that for
# `npm run scale:demo` and the tests.
#
# Check it compiles:  varnishd -C -f $PWD/deploy/varnish/default.vcl -p vcl_path=$PWD/deploy/varnish
# (with a backends.vcl there). Started as root, varnishd compiles as its own user (vcache): the files
# and their directories must be readable by it (or start it with -j none, as scripts/varnish.ts does).

import directors;
import std;
import xkey;

include "backends.vcl";

# Who may purge: loopback here, plus `firm_purgers` of backends.vcl (the containers' addresses).
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_init {
    call firm_backends_init;
}

sub vcl_recv {
    # Varnish's own Host rules (lower case; HTTP/1.1 without Host refused): our vcl_recv returns
    # before the builtin one would run.
    call vcl_req_host;

    # Our own markers between subroutines: never taken from a client.
    if (req.restarts == 0) {
        unset req.http.x-firm-encoding;
        unset req.http.x-firm-fresh;
        unset req.http.xkey-purged;
    }

    if (req.method == "PURGE") {
        if (client.ip !~ purgers && client.ip !~ firm_purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "PURGE needs an xkey-purge header with the keys to purge"));
        }
        # A hard purge: the next request fetches the new page, never a stale copy in grace.
        set req.http.xkey-purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged"));
    }

    set req.backend_hint = firm.backend();

    if (req.method == "PRI" || req.method == "CONNECT") {
        return (synth(405));
    }
    # The scheme the visitor came by, as the TLS proxy in front of Varnish says: exactly "https" or
    # "http", and part of the cache key (vcl_hash), so a copy filled by a request labelled http (no
    # Strict-Transport-Security, http links) is never served to https visitors.
    if (req.http.X-Forwarded-Proto ~ "(?i)^\s*https\s*$") {
        set req.http.X-Forwarded-Proto = "https";
    } else {
        set req.http.X-Forwarded-Proto = "http";
    }

    if (req.method != "GET" && req.method != "HEAD") {
        # POST, PUT, PATCH, DELETE, OPTIONS: straight to a container (never piped: each request is
        # logged and balanced on its own). The body is read whole first, up to the API's own limit:
        # a larger one is refused here and never reaches a container's connection, and a request
        # whose container fails can be sent again, body and all, to another (vcl_backend_error).
        if ((req.http.Content-Length && req.http.Content-Length != "0") || req.http.Transfer-Encoding) {
            if (!std.cache_req_body(64KB)) {
                return (synth(413, "Request body is too large (64 KB at most)."));
            }
        }
        return (pass);
    }
    # The admin, its API and the sign-in page are never for a shared cache, whatever they answer
    # (also asked for as http://host/admin, //admin or /ADMIN: passing too much costs nothing).
    if (req.url ~ "(?i)^([a-z]+://[^/]*)?/+(api/+admin|admin|login)") {
        return (pass);
    }
    if (req.http.Authorization) {
        return (pass);
    }

    # The site sets no cookie (the admin's session lives in localStorage, Amplify): a Cookie header
    # here is a stray one (analytics, another app on the domain) and must not split or bypass the cache.
    unset req.http.Cookie;

    # One cached copy per encoding the servers produce: br, gzip or none. Varnish itself would ask the
    # backend for gzip only (http_gzip_support), so the choice rides in a header of our own, is part
    # of the hash, and is given back to the backend in vcl_backend_fetch.
    if (req.http.Accept-Encoding ~ "(^|[\s,])br([\s,;]|$)") {
        set req.http.x-firm-encoding = "br";
    } elsif (req.http.Accept-Encoding ~ "(^|[\s,])gzip([\s,;]|$)") {
        set req.http.x-firm-encoding = "gzip";
    } else {
        set req.http.x-firm-encoding = "identity";
    }

    set req.url = std.querysort(req.url);

    # stale-if-error: objects are kept past their stale-while-revalidate window (vcl_backend_response)
    # and vcl_hit serves those only while no container is healthy; otherwise it restarts the request
    # here, and a copy past its ttl then counts as a miss.
    if (req.http.x-firm-fresh) {
        set req.grace = 0s;
    }
    return (hash);
}

sub vcl_hash {
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    } else {
        hash_data(server.ip);
    }
    if (req.http.x-firm-encoding) {
        hash_data(req.http.x-firm-encoding);
    }
    hash_data(req.http.X-Forwarded-Proto);
    return (lookup);
}

sub vcl_hit {
    # A stale copy beyond its stale-while-revalidate window (x-firm-swr, below) while a container is
    # healthy: fetch a fresh one now instead of serving the old one (stale-if-error is for outages).
    # (vcl_hit cannot turn a hit into a miss in Varnish 7: the request starts again, refusing grace.)
    if (obj.ttl + std.duration(obj.http.x-firm-swr, 0s) < 0s && std.healthy(req.backend_hint) && !req.http.x-firm-fresh) {
        set req.http.x-firm-fresh = "1";
        return (restart);
    }
}

sub vcl_backend_fetch {
    if (bereq.http.x-firm-encoding == "br" || bereq.http.x-firm-encoding == "gzip") {
        set bereq.http.Accept-Encoding = bereq.http.x-firm-encoding;
    } elsif (bereq.http.x-firm-encoding) {
        unset bereq.http.Accept-Encoding;
    }
    unset bereq.http.x-firm-encoding;
}

sub vcl_backend_response {
    # A failed background refresh must not replace the stale copy still being served.
    if (bereq.is_bgfetch && beresp.status >= 500) {
        return (abandon);
    }
    # Only what the server calls public is kept; no-store or private never (404s and errors included:
    # the server marks those it wants kept). Hit-for-miss: the next request goes to a container again.
    if (beresp.http.Cache-Control !~ "(?i)(^|[\s,])public([\s,]|$)" || beresp.http.Cache-Control ~ "(?i)(no-store|private)") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # xkey indexes the `xkey` header (space separated): the server's Surrogate-Key.
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    # TTL: s-maxage, else max-age (Varnish's own reading of Cache-Control). The stale windows come from
    # Surrogate-Control, the CDN's own header (the server keeps them out of Cache-Control, which
    # browsers honour too), else from Cache-Control. Grace: stale-while-revalidate, kept in x-firm-swr
    # for vcl_hit, then stretched to stale-if-error so an outage of every container still serves the
    # last copy.
    if (beresp.http.Surrogate-Control ~ "(?i)stale-while-revalidate=[0-9]+") {
        set beresp.grace = std.duration(regsub(beresp.http.Surrogate-Control, "(?i)^.*stale-while-revalidate=([0-9]+).*$", "\1s"), 0s);
    }
    set beresp.http.x-firm-swr = beresp.grace + "s";
    if (beresp.http.Surrogate-Control ~ "(?i)stale-if-error=[0-9]+") {
        set beresp.http.x-firm-sie = regsub(beresp.http.Surrogate-Control, "(?i)^.*stale-if-error=([0-9]+).*$", "\1s");
    } else {
        set beresp.http.x-firm-sie = regsub(beresp.http.Cache-Control, "(?i)^.*stale-if-error=([0-9]+).*$", "\1s");
    }
    if (std.duration(beresp.http.x-firm-sie, 0s) > beresp.grace) {
        set beresp.grace = std.duration(beresp.http.x-firm-sie, 0s);
    }
    unset beresp.http.x-firm-sie;
    # The builtin rules still apply after this (Set-Cookie, Vary: *, ttl <= 0: not kept).
}

sub vcl_backend_error {
    if (bereq.is_bgfetch) {
        return (abandon);
    }
    # The container could not be reached, or its connection died before an answer (a crash, a
    # restart, a container the probe has not yet marked sick): send the request again, to the next
    # container of the director, before any visitor sees an error. Safe to repeat: reads, PUT and
    # DELETE (the same state twice), and writes carrying an Idempotency-Key (the API stores them
    # once, decision 016). A POST without a key is not sent twice.
    if (bereq.retries < 3 && (bereq.method == "GET" || bereq.method == "HEAD" || bereq.method == "PUT" || bereq.method == "DELETE" || bereq.http.Idempotency-Key)) {
        return (retry);
    }
}

sub vcl_deliver {
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # Internal: what the cache is keyed and purged by is nobody else's business. (Age is Varnish's own.)
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;
    unset resp.http.Cache-Tag;
    unset resp.http.Surrogate-Control;
    unset resp.http.CDN-Cache-Control;
    unset resp.http.x-firm-swr;
}

sub vcl_synth {
    if (resp.status == 413) {
        # In the API's own words and shape (api/http/errors.ts), so the islands show it as they do the API's.
        set resp.http.Content-Type = "application/json; charset=utf-8";
        set resp.http.Connection = "close";
        set resp.body = {"{"error":"Request body is too large (64 KB at most)." }"};
        return (deliver);
    }
    if (req.method == "PURGE" && resp.status == 200) {
        set resp.http.xkey-purged = req.http.xkey-purged;
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        set resp.body = req.http.xkey-purged + {"
"};
        return (deliver);
    }
}

-- deploy/postgresql-roles.sql — the sewer office's database and its two PostgreSQL roles
-- (docs/database-roles.md). Run once, as a superuser, on a new installation:
--
--   sudo -u postgres psql -v ON_ERROR_STOP=1 \
--       -v owner_password="$OWNER_PASSWORD" -v runtime_password="$RUNTIME_PASSWORD" \
--       -f deploy/postgresql-roles.sql
--
-- * sewer_use_owner: owns the database, its schema and every table. `migrate` runs as it
--   (SEWER_USE_OWNER_DATABASE_URL, deploy/systemd/sewer-use-migrate.service) and grants the
--   runtime role its privileges after every migration. Nothing else connects as it.
-- * sewer_use: the role the office runs as (DATABASE_URL). It owns nothing, so it cannot
--   ALTER TABLE ... DISABLE TRIGGER; no superuser, so no session_replication_role = replica;
--   no TRUNCATE, no DELETE of records of legal weight, no UPDATE of append-only ones.
--
-- The names can be changed with -v owner=... -v runtime=... -v database=... (then change
-- DATABASE_URL, SEWER_USE_RUNTIME_ROLE and the owner's URL to match). The passwords are
-- needed; generate them, e.g. python3 -c "import secrets; print(secrets.token_urlsafe(32))".

\set ON_ERROR_STOP on
\if :{?owner}
\else
    \set owner sewer_use_owner
\endif
\if :{?runtime}
\else
    \set runtime sewer_use
\endif
\if :{?database}
\else
    \set database sewer_use
\endif
\if :{?owner_password}
\else
    DO $$ BEGIN RAISE EXCEPTION 'give the owner role a password: -v owner_password=...'; END $$;
\endif
\if :{?runtime_password}
\else
    DO $$ BEGIN RAISE EXCEPTION 'give the runtime role a password: -v runtime_password=...'; END $$;
\endif

CREATE ROLE :"owner" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
    PASSWORD :'owner_password';
CREATE ROLE :"runtime" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
    NOINHERIT PASSWORD :'runtime_password';
-- a handful of connections per gunicorn worker and timer: a runaway loop cannot take them all
ALTER ROLE :"runtime" CONNECTION LIMIT 50;

CREATE DATABASE :"database" OWNER :"owner" ENCODING 'UTF8' TEMPLATE template0;
-- nobody connects unless granted (the runtime role's CONNECT comes with its grants)
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"database" TO :"runtime";

\connect :"database"
-- the owner's schema; before PostgreSQL 15 everyone could create tables in public
ALTER SCHEMA public OWNER TO :"owner";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"runtime";

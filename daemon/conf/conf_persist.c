/* SPDX-License-Identifier: ISC */
/*
 * conf_persist.c -- `dcbctl set --persist`: rewrite the file so that it
 * holds an interface's new policy.  The file is read again as it is now,
 * the port entry's policy blocks are swapped (or a pinned entry added),
 * top-level @include lines are kept and what an included file holds is
 * refused, the new text is read back and checked before conf_writer puts
 * it in place through a temp file beside it (conf_write_file); the temps
 * of an interrupted rewrite are removed at start (conf_clean_temps).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf.h"
#include "conf/conf_field.h"
#include "conf/conf_int.h"

static const char persist_header[] =
    "# dcbxd.conf(5) -- rewritten by `dcbctl set --persist`.\n"
    "# Comments of the previous version were not kept; @include lines were.\n\n";

bool	conf_check_accounts = true;

/* Does text, read as the file at path, hold adm as ifname's policy? */
static int
persist_check(const char *path, const char *text, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	struct conf chk;
	struct conf_entry p;
	int rc = 0;

	if (conf_load_src(path, text, &chk, err, errlen) != 0)
		return -1;
	conf_port_for(&chk, ifname, &p);
	if (((adm->has & DCB_HAS_ETS) && !dcb_ets_equal(&p.admin.ets, &adm->ets)) ||
	    ((adm->has & DCB_HAS_RECO) && !dcb_ets_equal(&p.admin.reco, &adm->reco)) ||
	    ((adm->has & DCB_HAS_PFC) && !dcb_pfc_equal(&p.admin.pfc, &adm->pfc)) ||
	    ((adm->has & DCB_HAS_APP) &&
	    (!dcb_app_table_equal(&p.admin.app, &adm->app) ||
	    p.admin.app.willing != adm->app.willing))) {
		snprintf(err, errlen, "%s: the rewritten file does not read "
		    "back as the requested policy of %s", path, ifname);
		rc = -1;
	}
	conf_free(&chk);
	return rc;
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The temp file of a rewrite: NAME CONF_TMP_TAG and mkstemp's six
 * characters -- a name of our own, so that conf_clean_temps() can never
 * take an admin's NAME.backup or NAME.orig12 for one.
 */
#define CONF_TMP_TAG	".dcbxd-tmp-"

/*
 * The file a rewrite replaces: path itself, or what its symlinks lead to
 * (a config managed elsewhere and linked in: renaming over the link would
 * leave the target without the change, and the link a stray copy).  A
 * link to nothing is refused rather than replaced.  0, or -1 with err.
 */
static int
persist_target(const char *path, char *real, size_t reallen, char *err,
    size_t errlen)
{
	char buf[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) {
		snprintf(real, reallen, "%s", path);
		return 0;
	}
	if (realpath(path, buf) == NULL) {
		snprintf(err, errlen, "%s: a symbolic link to %s: %s", path,
		    "a file that cannot be reached", strerror(errno));
		return -1;
	}
	snprintf(real, reallen, "%s", buf);
	return 0;
}

/*
 * Temp file in the same directory, fsync, rename, fsync the directory;
 * a symlinked path is written where it leads (persist_target()).
 */
int
conf_write_file(const char *lpath, const char *text, size_t len, char *err,
    size_t errlen)
{
	char tmp[PATH_MAX + sizeof(CONF_TMP_TAG) + 8], dir[PATH_MAX];
	char path[PATH_MAX];
	struct stat st;
	int fd, dfd;

	if (persist_target(lpath, path, sizeof(path), err, errlen) != 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s" CONF_TMP_TAG "XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (stat(path, &st) != 0)
		st.st_mode = 0644, st.st_uid = (uid_t)-1, st.st_gid = (gid_t)-1;
	if (fchmod(fd, st.st_mode & 07777) != 0 ||
	    (fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM) ||
	    write_all(fd, text, len) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	snprintf(dir, sizeof(dir), "%s", path);
	if ((dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY)) >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

/*
 * Temp files of a rewrite that never finished (the daemon killed between
 * mkstemp and rename): "NAME.dcbxd-tmp-XXXXXX" beside the file, six
 * characters of mkstemp's alphabet, a regular file.  Returns how many
 * were removed.
 */
static int	clean_temps_at(const char *);

int
conf_clean_temps(const char *path)
{
	char real[PATH_MAX], err[64];
	int n;

	n = clean_temps_at(path);
	if (persist_target(path, real, sizeof(real), err, sizeof(err)) == 0 &&
	    strcmp(real, path) != 0)
		n += clean_temps_at(real);
	return n;
}

static int
clean_temps_at(const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX], full[PATH_MAX * 2];
	const char *name;
	struct dirent *de;
	struct stat st;
	size_t bl;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s" CONF_TMP_TAG, path);
	name = basename(base);
	bl = strlen(name);
	if ((d = opendir(dirname(dir))) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, name, bl) != 0 ||
		    strlen(de->d_name + bl) != 6 ||
		    strspn(de->d_name + bl, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789") != 6)
			continue;
		snprintf(full, sizeof(full), "%s/%s", dir, de->d_name);
		if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (unlink(full) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* Swap the blocks of the policy parts that adm carries. */
/* -1 with err set if a part has no field (a table out of step). */
static int
persist_replace(config_setting_t *e, const struct conf_entry *p, uint8_t has,
    char *err, size_t errlen)
{
	static const struct { uint8_t bit; const char *name; } part[] = {
		{ DCB_HAS_ETS, "ets" }, { DCB_HAS_RECO, "reco" },
		{ DCB_HAS_PFC, "pfc" }, { DCB_HAS_APP, "app" },
		{ DCB_HAS_APP, "app-willing" },
	};
	const struct field *f;
	size_t i;

	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (!(has & part[i].bit))
			continue;
		for (f = conf_port_fields; f->name != NULL &&
		    strcmp(f->name, part[i].name) != 0; f++)
			;
		if (f->name == NULL) {
			snprintf(err, errlen, "no setting for %s in a port "
			    "entry", part[i].name);
			return -1;
		}
		if (config_setting_get_member(e, part[i].name) != NULL)
			config_setting_remove(e, part[i].name);
		f->emit(e, p, f);
	}
	return 0;
}

static void
persist_merge(struct conf_entry *p, const struct dcb_config *adm)
{
	if (adm->has & DCB_HAS_ETS)
		p->admin.ets = adm->ets;
	if (adm->has & DCB_HAS_RECO) {
		p->admin.reco = adm->reco;
		p->admin.has |= DCB_HAS_RECO;	/* a reco block from now on */
	} else if ((adm->has & DCB_HAS_ETS) &&
	    !(p->admin.has & DCB_HAS_RECO))
		p->admin.reco = adm->ets;	/* still follows ETS */
	if (adm->has & DCB_HAS_PFC)
		p->admin.pfc = adm->pfc;
	if (adm->has & DCB_HAS_APP)
		p->admin.app = adm->app;
}

/* Read from an @include'd file (not the main one, not made by us)? */
static bool
from_include(const config_setting_t *s, const char *path)
{
	const char *f = config_setting_source_file(s);

	return f != NULL && strcmp(f, path) != 0;
}

/* A setting of the main file holding an included one somewhere below. */
static const config_setting_t *
nested_include(const config_setting_t *s, const char *path)
{
	const config_setting_t *r;
	int i;

	if (from_include(s, path))
		return s;
	if (!config_setting_is_aggregate(s))
		return NULL;
	for (i = 0; i < config_setting_length(s); i++)
		if ((r = nested_include(config_setting_get_elem(s, i), path)))
			return r;
	return NULL;
}

/*
 * The @include directives of text as libconfig reads them, written to out
 * one a line (`@include "NAME"`); their count.  libconfig takes one only
 * at the start of a line (spaces and tabs before it), outside a comment
 * (`#`, `//`, a block) and outside a string (which may span lines): an
 * "@include" in a comment or a string is text, and writing it back as a
 * line of its own would revive it.  Only the directive is copied, not
 * what follows it on its line (a comment opened there would swallow the
 * settings written after it).
 */
int
conf_include_lines(const char *text, size_t len, FILE *out)
{
	enum { NORMAL, LINE_COMMENT, BLOCK_COMMENT, STRING } st = NORMAL;
	bool bol = true;	/* only blanks since the line began */
	size_t i, j;
	int n = 0;

	for (i = 0; i < len; i++) {
		char ch = text[i];

		switch (st) {
		case LINE_COMMENT:
			if (ch == '\n')
				st = NORMAL;
			break;
		case BLOCK_COMMENT:
			if (ch == '*' && i + 1 < len && text[i + 1] == '/') {
				st = NORMAL;
				i++;
			}
			break;
		case STRING:
			if (ch == '\\')
				i++;
			else if (ch == '"')
				st = NORMAL;
			break;
		case NORMAL:
			if (bol && ch == '@' && len - i > 8 &&
			    strncmp(text + i, "@include", 8) == 0 &&
			    (text[i + 8] == ' ' || text[i + 8] == '\t')) {
				for (j = i + 8; j < len && (text[j] == ' ' ||
				    text[j] == '\t'); j++)
					;
				if (j < len && text[j] == '"') {
					size_t k = j + 1;

					while (k < len && text[k] != '"' &&
					    text[k] != '\n')
						k++;
					if (k < len && text[k] == '"') {
						fprintf(out, "@include %.*s\n",
						    (int)(k + 1 - j), text + j);
						n++;
						i = k;
						bol = false;
						continue;
					}
				}
			}
			if (ch == '#')
				st = LINE_COMMENT;
			else if (ch == '/' && i + 1 < len && text[i + 1] == '/')
				st = LINE_COMMENT;
			else if (ch == '/' && i + 1 < len && text[i + 1] == '*') {
				st = BLOCK_COMMENT;
				i++;
			} else if (ch == '"')
				st = STRING;
			break;
		}
		if (ch == '\n')
			bol = true;
		else if (ch != ' ' && ch != '\t')
			bol = false;
	}
	return n;
}

/*
 * The file's new text: the header, its top-level @include lines as they
 * were, then the settings of the file itself.  What came from an included
 * file stays there (not inlined); an @include inside a setting, or a
 * change that falls in an included file, cannot be written back and is
 * refused with the reason.
 */
static char *
persist_text(config_t *cf, const char *path, size_t *lenp, char *err,
    size_t errlen)
{
	config_setting_t *root = config_root_setting(cf);
	const config_setting_t *s, *in;
	char *buf = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *src, *mem;
	bool incl = false;
	int i;

	for (i = config_setting_length(root) - 1; i >= 0; i--) {
		s = config_setting_get_elem(root, (unsigned)i);
		if (from_include(s, path))
			config_setting_remove_elem(root, (unsigned)i);
		else if ((in = nested_include(s, path)) != NULL) {
			snprintf(err, errlen, "%s:%d: `%s' holds settings of "
			    "%s (an @include inside a setting): --persist "
			    "cannot write it back; move the @include to the "
			    "top level", path, config_setting_source_line(s),
			    config_setting_name(s),
			    config_setting_source_file(in));
			return NULL;
		}
	}
	if ((src = fopen(path, "r")) == NULL && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((mem = open_memstream(&buf, lenp)) == NULL) {
		if (src != NULL)
			fclose(src);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	fputs(persist_header, mem);
	if (src != NULL && (n = getdelim(&line, &cap, '\0', src)) > 0)
		incl = conf_include_lines(line, (size_t)n, mem) > 0;
	free(line);
	if (src != NULL)
		fclose(src);
	if (incl)
		fputc('\n', mem);
	field_write_config(mem, cf);
	if (fclose(mem) != 0) {
		free(buf);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	return buf;
}

int
conf_persist_admin(const struct conf *c, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	return conf_persist_file(c->path, ifname, adm, err, errlen);
}

int
conf_persist_file(const char *path, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	config_setting_t *ports, *e;
	struct field_ctx x = { path, err, errlen, 0, 0 };
	struct dcb_why why = { "" };
	struct conf cur;
	struct conf_entry p;
	config_t cf;
	char *text = NULL;
	size_t len;
	bool fresh;
	int i, rc = -1;

	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s: %s", ifname, why.buf[0] != '\0' ?
		    why.buf : dcb_strerror(rc));
		return -1;
	}
	rc = -1;
	/* The file as it is now, not as it was when c was loaded; none yet
	 * (running with the defaults) is an empty one. */
	fresh = access(path, F_OK) != 0 && errno == ENOENT;
	if (fresh)
		conf_defaults(&cur);
	else if (conf_load(path, &cur, err, errlen) != 0)
		return -1;
	config_init(&cf);
	if (!fresh && conf_read(&x, &cf, path, NULL) != 0)
		goto out;
	i = conf_port_best(&cur, ifname);
	if (i >= 0)
		p = cur.ports[i];
	else
		conf_port_unlisted(&p, ifname);
	persist_merge(&p, adm);
	if ((ports = config_lookup(&cf, "ports")) == NULL)
		ports = config_setting_add(config_root_setting(&cf), "ports",
		    CONFIG_TYPE_LIST);
	e = i >= 0 ? config_setting_get_elem(ports, (unsigned)i) : NULL;
	if (from_include(ports, path) ||
	    (e != NULL && !conf_is_pattern(p.port.match) &&
	    from_include(e, path))) {
		snprintf(err, errlen, "%s: the settings of %s come from %s "
		    "(@include): --persist rewrites only %s; change them there",
		    path, ifname, config_setting_source_file(e != NULL &&
		    from_include(e, path) ? e : ports), path);
		goto out;
	}
	if (e != NULL && !conf_is_pattern(p.port.match)) {
		if (persist_replace(e, &p, adm->has, err, errlen) != 0)
			goto out;
	} else {
		/* A pattern's settings, pinned to this one interface. */
		snprintf(p.port.match, sizeof(p.port.match), "%s", ifname);
		e = config_setting_add(ports, NULL, CONFIG_TYPE_GROUP);
		field_emit_block(e, &p, conf_port_fields);
	}
	if ((text = persist_text(&cf, path, &len, err, errlen)) == NULL ||
	    persist_check(path, text, ifname, adm, err, errlen) != 0)
		goto out;
	rc = conf_write_file(path, text, len, err, errlen) == 0 ? 0 : -1;
out:
	free(text);
	config_destroy(&cf);
	conf_free(&cur);
	return rc;
}

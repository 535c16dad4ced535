//! The Discord application's settings (`serve --discord-*`, `colosseum discord register`); see
//! docs/discord.md and `colosseum_server::discord`.

use std::path::PathBuf;

use anyhow::{Context, Result};
use colosseum_server::discord::Config;

/// The Discord application (docs/discord.md). All of the id, the public key and the bot token
/// (flags or environment) turn it on; none leaves it off; some but not all is an error.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct DiscordArgs {
    /// The Discord application's id (Developer Portal, General Information; or set
    /// COLOSSEUM_DISCORD_APP_ID). With the public key and the bot token, the server answers
    /// Discord's interactions at POST /api/discord/interactions.
    #[arg(long, value_name = "ID")]
    discord_app_id: Option<String>,
    /// The application's public key, 64 hex digits (or set COLOSSEUM_DISCORD_PUBLIC_KEY): every
    /// interaction's signature is checked against it.
    #[arg(long, value_name = "HEX")]
    discord_public_key: Option<String>,
    /// A file holding the bot's token (or set COLOSSEUM_DISCORD_BOT_TOKEN_FILE, or
    /// COLOSSEUM_DISCORD_BOT_TOKEN to the token itself); never a flag's value, which `ps`
    /// shows.
    #[arg(long, value_name = "PATH")]
    discord_bot_token_file: Option<PathBuf>,
    /// Discord's API base URL (or set COLOSSEUM_DISCORD_API_BASE; a stand-in's in tests).
    #[arg(long, value_name = "URL")]
    discord_api_base: Option<String>,
    /// This server's public address, e.g. https://colosseum.example (or set
    /// COLOSSEUM_DISCORD_PUBLIC_URL): the web table links given to players start with it.
    #[arg(long, value_name = "URL")]
    discord_public_url: Option<String>,
    /// A file keeping which matches each channel plays and their members (or set
    /// COLOSSEUM_DISCORD_STATE), so a restart keeps them; default: beside the SQLite database
    /// (`DB.discord`); with --postgres, give one or they live in memory only. It holds the
    /// seats' tokens: keep it private, like the database.
    #[arg(long, value_name = "PATH")]
    discord_state: Option<PathBuf>,
    /// A guild (Discord server) to register the /colosseum command in at start (repeat for
    /// several; or run `colosseum discord register`).
    #[arg(long, value_name = "ID")]
    pub discord_guild: Vec<String>,
}

/// A flag's value, else the environment variable's (empty counts as unset).
fn flag_or_env(flag: Option<&str>, env: &str) -> Option<String> {
    flag.map(str::to_string)
        .or_else(|| std::env::var(env).ok())
        .filter(|v| !v.trim().is_empty())
}

impl DiscordArgs {
    /// The application's settings: `None` when none of id, key and token is given.
    /// `default_state`: the bindings' file when neither `--discord-state` nor
    /// `COLOSSEUM_DISCORD_STATE` names one (`serve`: beside a SQLite database).
    pub fn config(&self, default_state: Option<PathBuf>) -> Result<Option<&'static Config>> {
        let app_id = flag_or_env(self.discord_app_id.as_deref(), "COLOSSEUM_DISCORD_APP_ID");
        let key = flag_or_env(
            self.discord_public_key.as_deref(),
            "COLOSSEUM_DISCORD_PUBLIC_KEY",
        );
        let token_file = self
            .discord_bot_token_file
            .clone()
            .or_else(|| flag_or_env(None, "COLOSSEUM_DISCORD_BOT_TOKEN_FILE").map(PathBuf::from));
        let token = match &token_file {
            Some(path) => Some(
                std::fs::read_to_string(path)
                    .with_context(|| format!("reading the Discord bot token {}", path.display()))?,
            ),
            None => flag_or_env(None, "COLOSSEUM_DISCORD_BOT_TOKEN"),
        };
        let base = flag_or_env(
            self.discord_api_base.as_deref(),
            "COLOSSEUM_DISCORD_API_BASE",
        );
        match (app_id, key, token) {
            (None, None, None) => Ok(None),
            (Some(id), Some(key), Some(token)) => {
                let mut config =
                    Config::new(&id, &key, &token, base.as_deref()).map_err(anyhow::Error::msg)?;
                let state = self
                    .discord_state
                    .clone()
                    .or_else(|| flag_or_env(None, "COLOSSEUM_DISCORD_STATE").map(PathBuf::from))
                    .or(default_state);
                if let Some(url) = flag_or_env(
                    self.discord_public_url.as_deref(),
                    "COLOSSEUM_DISCORD_PUBLIC_URL",
                ) {
                    config = config.with_public_url(&url).map_err(anyhow::Error::msg)?;
                }
                if let Some(file) = state {
                    config = config.with_state_file(file).map_err(anyhow::Error::msg)?;
                }
                Ok(Some(config.leak()))
            }
            (id, key, token) => {
                let missing: Vec<&str> = [
                    (id.is_none(), "--discord-app-id"),
                    (key.is_none(), "--discord-public-key"),
                    (token.is_none(), "--discord-bot-token-file"),
                ]
                .into_iter()
                .filter_map(|(m, flag)| m.then_some(flag))
                .collect();
                anyhow::bail!(
                    "the Discord application needs its id, public key and bot token: {} missing \
                     (flags, or COLOSSEUM_DISCORD_*; docs/discord.md)",
                    missing.join(", ")
                )
            }
        }
    }
}

/// `colosseum discord ...`.
#[derive(Debug, clap::Subcommand)]
pub enum DiscordCommand {
    /// Register (overwrite) the /colosseum command in one or more guilds (Discord servers) the
    /// application is invited to: PUT {api}/applications/{app}/guilds/{guild}/commands.
    Register {
        /// A guild's id (Discord: Server Settings, or Copy Server ID); repeat for several.
        #[arg(long, value_name = "ID")]
        guild: Vec<String>,
        /// The application.
        #[command(flatten)]
        app: DiscordArgs,
    },
}

/// Runs `colosseum discord ...`.
pub fn run(command: &DiscordCommand, out: &mut impl std::io::Write) -> Result<()> {
    match command {
        DiscordCommand::Register { guild, app } => {
            let config = app.config(None)?.ok_or_else(|| {
                anyhow::anyhow!(
                    "give the application: --discord-app-id, --discord-public-key and \
                     --discord-bot-token-file (or COLOSSEUM_DISCORD_*; docs/discord.md)"
                )
            })?;
            let guilds: Vec<&String> = guild.iter().chain(&app.discord_guild).collect();
            if guilds.is_empty() {
                anyhow::bail!("name the guild: --guild ID");
            }
            let runtime = tokio::runtime::Runtime::new()?;
            for g in guilds {
                runtime.block_on(colosseum_server::discord::register(config, g))?;
                writeln!(out, "registered /colosseum in guild {g}")?;
            }
            Ok(())
        }
    }
}

/// Registers the commands in `guilds` at `serve`'s start; a failure is logged, not fatal (the
/// server still serves the web table and the guilds registered before).
pub async fn register_at_start(config: &Config, guilds: &[String]) {
    for g in guilds {
        match colosseum_server::discord::register(config, g).await {
            Ok(_) => tracing::info!(guild = %g, "Discord commands registered"),
            Err(e) => tracing::error!(guild = %g, "Discord commands not registered: {e:#}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::{Cli, Command};

    fn serve(args: &[&str]) -> super::DiscordArgs {
        let cli = Cli::try_parse_from(["colosseum", "serve"].iter().chain(args)).unwrap();
        match cli.command {
            Command::Serve { discord, .. } => discord,
            _ => unreachable!("serve parses as serve"),
        }
    }

    #[test]
    fn serve_takes_the_application_from_its_flags_and_the_token_from_a_file() {
        assert!(serve(&[]).config(None).unwrap().is_none(), "off by default");
        let dir = std::env::temp_dir().join(format!("colosseum-discord-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let token = dir.join("token");
        std::fs::write(&token, "tok-123\n").unwrap();
        let key = "0f".repeat(32);
        let token_arg = token.to_str().unwrap();
        let state = dir.join("discord.json");
        let state_arg = state.to_str().unwrap();
        let args = [
            "--discord-app-id",
            "42",
            "--discord-public-key",
            &key,
            "--discord-bot-token-file",
            token_arg,
            "--discord-api-base",
            "http://127.0.0.1:1/api/",
            "--discord-guild",
            "7",
            "--discord-state",
            state_arg,
            "--discord-public-url",
            "https://c.example/",
        ];
        let parsed = serve(&args);
        assert_eq!(parsed.discord_guild, ["7"]);
        let config = parsed.config(None).unwrap().expect("on");
        assert_eq!(config.app_id, "42");
        assert_eq!(config.public_key, [0x0f; 32]);
        assert_eq!(
            config.bot_token, "tok-123",
            "the file's line end is not the token's"
        );
        assert_eq!(config.api_base, "http://127.0.0.1:1/api");
        assert_eq!(config.public_url.as_deref(), Some("https://c.example"));
        // A state file that is not the bindings' JSON stops the server.
        std::fs::write(&state, "not json").unwrap();
        let err = serve(&args).config(None).unwrap_err().to_string();
        assert!(err.contains("state file"), "{err}");
        // Without --discord-state, the file beside the database is the one read (a bad one
        // stops the server too); --discord-state wins over it.
        let beside = dir.join("colosseum.db.discord");
        std::fs::write(&beside, "not json either").unwrap();
        let unnamed = &args[..args.len() - 4];
        let err = serve(unnamed)
            .config(Some(beside.clone()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("colosseum.db.discord"), "{err}");
        std::fs::write(&state, "{}").unwrap();
        assert!(serve(&args).config(Some(beside)).unwrap().is_some());
        // Some but not all: an error naming what is missing.
        let err = serve(&["--discord-app-id", "42"])
            .config(None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("--discord-public-key"), "{err}");
        assert!(err.contains("--discord-bot-token-file"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

"""Secret masking: real-format (fake) secrets in training-log contexts are masked, diagnostics survive."""

import time

import pytest

from bot.redact import MASK, PEM_REMOVED, redact, redact_blocks, redact_value

AWS_ID = "AKIAIOSFODNN7EXAMPLE"  # AWS's documented example keys
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
AZURE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="  # Azurite's
WANDB_KEY = "0123456789abcdef0123456789abcdef01234567"
HF = "hf_FAKEabcdefghijklmnopqrstuvwxyz0123"
PYPI = (
    "pypi-AgEIcHlwaS5vcmcCJGZha2UtZmFrZS1mYWtlLWZha2UtZmFrZS1mYWtlLWZha2UtZmFrZQACKlszLCJmYWtlIl0AAAYg"
    "ZmFrZWZha2VmYWtlZmFrZWZha2VmYWtlZmFrZWZha2U"
)
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJGQUtFIiwibmFtZSI6ImZha2UifQ."
    "FAKEsigFAKEsigFAKEsig0123456789abcdefghijk"
)
PEM_BEGIN, PEM_END = "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"
PEM_BODY = [
    "MIIEpAIBAAKCAQEA" + "FAKEkey0" * 6,  # 64-character PEM lines...
    "y0FAKE1kEy2FaKe3KeY4fAkE5kEy6FAKE7key8FAKE9keyA0b1C2d3E4f5G6h7I8",
    "q3Vx9LmT2pZk7RwY4nBc8HsJ1dFg6Ka=",
]  # ...and the shorter last one

SECRETS = [
    # The ten formats that leaked before this masker.
    ("    creds = ('AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')", AWS_SECRET),
    (
        "botocore.exceptions.ClientError: signature computed with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY "
        "does not match",
        AWS_SECRET,
    ),
    (
        '    svc = BlobServiceClient.from_connection_string("DefaultEndpointsProtocol=https;AccountName=runs;'
        f'AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net")',
        AZURE_KEY,
    ),
    (
        "    r = requests.post(url, headers={'Authorization': 'Bearer FAKE7fQx2LmPz9KdR4vT8wYb3NcJ6hUe1sAq'})",
        "FAKE7fQx2LmPz9KdR4vT8wYb3NcJ6hUe1sAq",
    ),
    (
        "google.api_core.exceptions.PermissionDenied: 403 API key not valid: AIzaSyFAKE-0123456789abcdefghijklmnopqr",
        "AIzaSyFAKE-0123456789abcdefghijklmnopqr",
    ),
    (
        "npm ERR! 403 Forbidden - token npm_FAKE0123456789abcdefghijklmnopqrstuv has expired",
        "npm_FAKE0123456789abcdefghijklmnopqrstuv",
    ),
    (f"+ twine upload --repository pypi -u __token__ -p {PYPI} dist/*", PYPI),
    (
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    ),
    (
        "stripe.error.AuthenticationError: Invalid API Key provided: sk_live_FAKE0123456789abcdefGHIJ",
        "sk_live_FAKE0123456789abcdefGHIJ",
    ),
    ('    stripe.api_key = "rk_live_FAKE0123456789abcdefGHIJ"', "rk_live_FAKE0123456789abcdefGHIJ"),
    (f"    os.environ['WANDB_API_KEY'] = '{WANDB_KEY}'", WANDB_KEY),
    (PEM_BODY[0], PEM_BODY[0]),
    (PEM_BODY[1], PEM_BODY[1]),
    (PEM_BODY[2], PEM_BODY[2]),
    (f"[rank0]: {PEM_BODY[0]}", PEM_BODY[0]),
    # Other vendor formats, from the detect-secrets catalogue or our own rules.
    (f"AWS_ACCESS_KEY_ID={AWS_ID}", AWS_ID),
    (
        "fatal: unable to access 'https://x-access-token:ghp_FAKE0123456789abcdefFAKE0123456789ab@github.com/o/r.git/'",
        "ghp_FAKE0123456789abcdefFAKE0123456789ab",
    ),
    (
        "GH_TOKEN=github_pat_11FAKE0123456789abcdef_FAKEfakeFAKEfake0123456789abcdefghij",
        "github_pat_11FAKE0123456789abcdef_FAKEfakeFAKEfake0123456789abcdefghij",
    ),
    (
        "ERROR: git+https://gitlab.com/org/lib.git@main: pip install with glpat-FAKEfake0123456789ab failed",
        "glpat-FAKEfake0123456789ab",
    ),
    (
        "slack_sdk.errors.SlackApiError: invalid_auth (token xoxb-123456789012-1234567890123-FAKEfakeFAKEfake1234)",
        "xoxb-123456789012-1234567890123-FAKEfakeFAKEfake1234",
    ),
    (
        "SLACK_APP_TOKEN: xapp-1-A0FAKE12345-1234567890123-fakefakefake0123456789abcdef",
        "xapp-1-A0FAKE12345-1234567890123-fakefakefake0123456789abcdef",
    ),
    (f"python train.py --hf_token {HF} --lr 1e-4", HF),
    (f"huggingface_hub.errors.HfHubHTTPError: 401 Client Error: invalid credentials {HF}", HF),
    (
        "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: "
        "sk-proj-FAKEfake0123456789ABCDEFghijklmnopQRSTUVwxyz'}}",
        "sk-proj-FAKEfake0123456789ABCDEFghijklmnopQRSTUVwxyz",
    ),
    (
        "anthropic.AuthenticationError: invalid x-api-key sk-ant-api03-FAKEfake0123456789ABCDEFghijklmnop-QRSTUVwx",
        "sk-ant-api03-FAKEfake0123456789ABCDEFghijklmnop-QRSTUVwx",
    ),
    (f"jwt.exceptions.ExpiredSignatureError: Signature has expired for {JWT}", JWT),
    (
        "python_http_client.exceptions.UnauthorizedError: HTTP 401 with key "
        "SG.FAKEfakeFAKEfake0123-4.FAKEfakeFAKEfake0123456789abcdefghijklmnopq",
        "SG.FAKEfakeFAKEfake0123-4.FAKEfakeFAKEfake0123456789abcdefghijklmnopq",
    ),
    (
        "twilio.base.exceptions.TwilioRestException: HTTP 401 for SKfake0123456789abcdef0123456789ab",
        "SKfake0123456789abcdef0123456789ab",
    ),
    (
        "discord.errors.LoginFailure: Improper token has been passed: "
        "MTAxFAKEfakeFAKEfake0123.GhFAKE.FAKEfakeFAKEfake0123456789a",
        "MTAxFAKEfakeFAKEfake0123.GhFAKE.FAKEfakeFAKEfake0123456789a",
    ),
    (
        "mailchimp3 error: API key fake0123456789abcdef0123456789ab-us6 is disabled",
        "fake0123456789abcdef0123456789ab-us6",
    ),
    (
        "telegram.error.InvalidToken: 123456789:AAFAKEfakeFAKEfake0123456789abcdefg was rejected",
        "123456789:AAFAKEfakeFAKEfake0123456789abcdefg",
    ),
    (
        "square.exceptions: client sq0csp-FAKEfakeFAKEfake0123456789abcdefghijklmnopq unauthorized",
        "sq0csp-FAKEfakeFAKEfake0123456789abcdefghijklmnopq",
    ),
    (
        "    'X-JFrog-Art-Api': AKCp8FAKEfakeFAKEfake0123456789abcdefghijklmnopqrstuvwxyz",
        "AKCp8FAKEfakeFAKEfake0123456789abcdefghijklmnopqrstuvwxyz",
    ),
    (
        '{"installed": {"client_id": "1234.apps.googleusercontent.com", "client_secret": '
        '"GOCSPX-FAKEfakeFAKEfake012345678901"}}',
        "GOCSPX-FAKEfakeFAKEfake012345678901",
    ),
    (
        "sqlalchemy.exc.OperationalError: could not connect to postgresql://trainer:Sup3r-S3cret!@db.internal:5432/m",
        "Sup3r-S3cret!",
    ),
    ("redis.exceptions.AuthenticationError while connecting to redis://:p4ssw0rdFAKE@cache:6379/0", "p4ssw0rdFAKE"),
    # Key/value forms in any quoting.
    ('+ curl -sf -H "Authorization: Basic dHJhaW5lcjpodW50ZXIy" https://metrics.internal/push', "dHJhaW5lcjpodW50ZXIy"),
    ('config: {"db_password": "s3cr3t-Passw0rd", "max_tokens": 4096}', "s3cr3t-Passw0rd"),
    ("DB_PASSWORD=hunter2hunter2", "hunter2hunter2"),
    ("python train.py --password=Tr0ub4dor&3fake --steps 10", "Tr0ub4dor&3fake"),
    ("python train.py --api-key 5f3c1a9e7b2d4f6a8c0e1b3d5f7a9c2e --steps 10", "5f3c1a9e7b2d4f6a8c0e1b3d5f7a9c2e"),
    (f"export HF_TOKEN={HF}", HF),
    ("export ANTHROPIC_API_KEY=notAVendorFormatButSecret", "notAVendorFormatButSecret"),
    ('    os.environ.setdefault("DB_PASSWORD", "fakeHunter2pw")', "fakeHunter2pw"),
    ("    cfg[\"mlflow_token\"] = 'plainfakevalue99'", "plainfakevalue99"),
    ("aws_secret_access_key: plainSecretWord", "plainSecretWord"),
    (f"+ wandb login --relogin {WANDB_KEY}", WANDB_KEY),
    (f'    wandb.login(key="{WANDB_KEY}", relogin=True)', WANDB_KEY),
    ('    signer = Signer("kZ8vQ2rT5wX9yB3nM6pL1sD4fG7hJ0cV")', "kZ8vQ2rT5wX9yB3nM6pL1sD4fG7hJ0cV"),
    ("DB_PASSWORD=Tr0ub&4dor&3fake", "Tr0ub&4dor&3fake"),
    (
        "requests.exceptions.HTTPError: 403 for url: https://api.internal/v1/runs?access_token=FAKEtok3nValue&page=2",
        "FAKEtok3nValue",
    ),
    (
        "botocore: GET https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240101%2Fus-east-1"
        "&X-Amz-Security-Token=IQoJb3JpZ2luX2VjFAKEfake0123&X-Amz-Expires=3600",
        "IQoJb3JpZ2luX2VjFAKEfake0123",
    ),
    (f"POST /oauth2/token grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion={JWT}", JWT),
    (
        "Invalid request signature (body: token=x&command=%2Fdenpex&text=diagnose+push+failed+for+"
        "https%3A%2F%2Fci%3As3cr3tpassw0rd%40git.example.com%2Fx&api_app_id=A0APP)",
        "s3cr3tpassw0rd",
    ),
    ("body: command=%2Fdenpex&text=diagnose+--db-url+x+db_password%3DfakeHunter2pw&trigger_id=1.2", "fakeHunter2pw"),
]


@pytest.mark.parametrize("line,secret", SECRETS)
def test_secrets_are_masked(line, secret):
    masked = redact(line)
    assert MASK in masked
    leaked = [secret[i : i + 8] for i in range(len(secret) - 7) if secret[i : i + 8] in masked]
    assert not leaked, masked


@pytest.mark.parametrize(
    "line,masked",
    [
        (f"AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net", "AccountKey=***;EndpointSuffix=core.windows.net"),
        (
            "headers={'Authorization': 'Bearer FAKE7fQx2LmPz9KdR4vT8wYb3NcJ6hUe1sAq'}",
            "headers={'Authorization': 'Bearer ***'}",
        ),
        ("curl -H 'Authorization: Bearer eyJabc.def.ghi'", "curl -H 'Authorization: Bearer ***'"),
        (f"os.environ['WANDB_API_KEY'] = '{WANDB_KEY}'", "os.environ['WANDB_API_KEY'] = '***'"),
        (f"python train.py --hf-token {HF} --lr 1e-4", "python train.py --hf-token *** --lr 1e-4"),
        ("db password: hunter2", "db password: ***"),
        ("postgres://trainer:Sup3r@db:5432/m", "postgres://trainer:***@db:5432/m"),
        (f'"{AWS_ID}", "{AWS_SECRET}"', '"***", "***"'),
        (f"{JWT} expired", "*** expired"),
    ],
)
def test_masks_keep_keys_and_prefixes_readable(line, masked):
    assert redact(line) == masked


LOOK_ALIKES = [
    "commit 3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b",
    "git_sha=3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b revision: 3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b",
    "    model = load(repo, revision='3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b')",
    "Loading /mnt/ckpt/3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b/model.safetensors",
    "3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b",
    "node-3:1234:1290 [3] NCCL INFO comm 0x55d5c8a0 rank 3 nranks 8 cudaDev 3 busId 3d000 commId 0x8a1f3e2b5c6d7e8f",
    "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1207, unhandled system error, ncclUniqueId exchange failed",
    "step 120 | loss 2.314 | num_tokens=2048 | max_tokens: 4096 | tokens/s 98012",
    "KeyError: 'token_type_ids'",
    "    token_type_ids = torch.zeros_like(input_ids)",
    "tokenizer=LlamaTokenizerFast(name_or_path='meta-llama/Llama-2-7b-hf', vocab_size=32000)",
    "    tokenizer.pad_token = tokenizer.eos_token",
    "special tokens: eos_token='</s>' pad_token='<pad>' unk_token='[UNK]'",
    "RuntimeError: size mismatch for lm_head.weight: copying a param with shape torch.Size([4096, 11008])",
    "Saving checkpoint to /mnt/ckpt/global_step1000/mp_rank_00_model_states.pt",
    "Downloading s3://bucket/run-3f2a9c/ckpt.pt",
    "job 550e8400-e29b-41d4-a716-446655440000 failed on node gpu-node-17.cluster.internal (10.1.2.3:29500)",
    "RuntimeError: CUDA error: an illegal memory access was encountered at 0x7f3a2c000000",
    "CUDA kernel errors might be asynchronously reported at some other API call; set CUDA_LAUNCH_BLOCKING=1",
    '  File "/app/secret_santa.py", line 12, in <module>',
    '  File "/app/auth.py", line 40, in password_reset',
    "    password_reset(user, send_email=True)",
    "docker pull nvcr.io/nvidia/pytorch@sha256:9b3a8f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8",
    "    torch==2.3.0 --hash=sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
    "checksum mismatch for shard 3: expected md5 d41d8cd98f00b204e9800998ecf8427e, "
    "got 9e107d9d372bb6826bd81d3542a419d6",
    "wandb: Syncing run glowing-sun-42 (id 3f2a9c1b) to https://wandb.ai/team/proj/runs/3f2a9c1b",
    "wandb: Run data is saved locally in /workspace/wandb/run-20240501_123011-3f2a9c1b",
    "    model = AutoModel.from_pretrained('meta-llama/Llama-2-7b-hf', use_auth_token=True, token=None)",
    "use_auth_token: true  hf_token: null  password: None",
    "decoded header data='SGVsbG8=' ok",
    "401 Unauthorized: Bearer token was rejected; refresh the Bearer token-based credentials",
    "ValueError: invalid token: the token has expired",
    "    def login(token: Optional[str] = None, password: str = None):",
    "    client = OpenAI(api_key=api_key)",
    "    token = os.environ['HF_TOKEN']",
    "    raise ValueError(f'Invalid token: {token}')",
    "PWD=/home/trainer/run OLDPWD=/home/trainer",
    "GOOGLE_APPLICATION_CREDENTIALS=/var/secrets/google/key.json",
    "python train.py --max-tokens 4096 --tokens 5 --no-auth --save-dir /mnt/ckpt",
    "loaded adapter sk-lora-llama2-7b-chat-finetuned from the hub",
    'request: {"max_tokens": 4096, "temperature": 0.7, "model": "meta-llama/Llama-2-7b-hf"}',
    "NCCL_IB_HCA=mlx5_0,mlx5_1 NCCL_SOCKET_IFNAME=eth0 MASTER_ADDR=10.1.2.3 MASTER_PORT=29500",
    "OSError: [Errno 28] No space left on device: '/mnt/ckpt/global_step1000'",
    "Epoch 1:  45%|████▌     | 450/1000 [00:45<00:55, 10.0it/s, loss=0.512]",
    "Qwen2VLForConditionalGeneration",
    "DistributedDataParallel",
    "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
    "[rank0]: MIIEpAIBAAKCAQEA looks like base64 but this line has words in it",
    "/mnt/ckpt/global_step1000/mp_rank_00_model_states.pt/optimizer_state",
    "cat: /etc/passwd: Permission denied",
    "Access denied for user 'root'@'localhost' (using password: YES)",
    "Your token has been saved to /root/.cache/huggingface/token",
    "healthcheck: auth: ok, secret store: enabled",
    "TypeError: __init__() got an unexpected keyword argument 'token'",
    "Token indices sequence length is longer than the specified maximum sequence length (5000 > 4096)",
    "loaded tokenizer.json (sha256-b64 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=)",
]


@pytest.mark.parametrize("line", LOOK_ALIKES)
def test_diagnostics_are_kept_verbatim(line):
    assert redact(line) == line


@pytest.mark.parametrize(
    "kind",
    [
        "RSA PRIVATE KEY",
        "PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "EC PRIVATE KEY",
        "PGP PRIVATE KEY BLOCK",
    ],
)
def test_a_private_key_block_in_one_text_is_removed(kind):
    text = "\n".join(
        ["[rank0]: loading deploy key", f"-----BEGIN {kind}-----", *PEM_BODY, f"-----END {kind}-----", "[rank0]: done"]
    )
    assert redact(text) == f"[rank0]: loading deploy key\n{PEM_REMOVED}\n[rank0]: done"


def test_a_private_key_inside_a_json_string_is_removed():
    line = (
        f'  "private_key": "{PEM_BEGIN}\\n{PEM_BODY[0]}\\n{PEM_END}\\n", "client_email": "ci@x.iam.gserviceaccount.com"'
    )
    assert PEM_BODY[0][16:24] not in redact(line) and "ci@x.iam.gserviceaccount.com" in redact(line)


def test_a_private_key_seen_line_by_line_is_masked():
    assert [redact(line) for line in [PEM_BEGIN, *PEM_BODY, PEM_END]] == [PEM_BEGIN, MASK, MASK, MASK, PEM_END]


def test_a_truncated_private_key_block_has_its_body_masked():
    text = "\n".join(["Traceback (most recent call last):", PEM_BEGIN, *PEM_BODY])
    assert redact(text) == "\n".join(["Traceback (most recent call last):", PEM_BEGIN, MASK, MASK, MASK])


def test_several_secrets_on_one_line_and_lines_in_one_text():
    text = (
        f"HF_TOKEN={HF} WANDB_API_KEY={WANDB_KEY}\r\n"
        f"step 1 loss 2.0 num_tokens=2048\r\n"
        f"creds ('{AWS_ID}', '{AWS_SECRET}')"
    )
    assert redact(text) == ("HF_TOKEN=*** WANDB_API_KEY=***\r\nstep 1 loss 2.0 num_tokens=2048\r\ncreds ('***', '***')")


def test_block_kit_strings_are_masked_but_identifiers_kept():
    blocks = [
        {
            "type": "section",
            "block_id": "evidence",
            "text": {"type": "mrkdwn", "text": f"`--hf_token {HF}`"},
            "fields": [{"type": "mrkdwn", "text": "db password: hunter2"}],
        },
        {
            "type": "actions",
            "elements": [
                {
                    "type": "button",
                    "action_id": "denpex_more_evidence",
                    "style": "primary",
                    "value": "password=keep-me-routing-id",
                    "text": {"type": "plain_text", "text": f"retry {AWS_ID}"},
                }
            ],
        },
    ]
    assert redact_blocks(blocks) == [
        {
            "type": "section",
            "block_id": "evidence",
            "text": {"type": "mrkdwn", "text": "`--hf_token ***`"},
            "fields": [{"type": "mrkdwn", "text": "db password: ***"}],
        },
        {
            "type": "actions",
            "elements": [
                {
                    "type": "button",
                    "action_id": "denpex_more_evidence",
                    "style": "primary",
                    "value": "password=keep-me-routing-id",
                    "text": {"type": "plain_text", "text": "retry ***"},
                }
            ],
        },
    ]


def test_redact_value_masks_every_string_and_keeps_keys():
    report = {
        "diagnoses": [{"title": "OOM on rank 3", "evidence": (f"export HF_TOKEN={HF}", 3)}],
        "env": {
            "DB_PASSWORD": "hunter2",
            "HF_TOKEN": None,
            "use_auth_token": "true",
            "NCCL_DEBUG": "INFO",
            "api_keys": ["not keyed by a secret word"],
            "client_secret": ["fakeA", "fakeB"],
        },
        "steps": 7,
    }
    assert redact_value(report) == {
        "diagnoses": [{"title": "OOM on rank 3", "evidence": ("export HF_TOKEN=***", 3)}],
        "env": {
            "DB_PASSWORD": MASK,
            "HF_TOKEN": None,
            "use_auth_token": "true",
            "NCCL_DEBUG": "INFO",
            "api_keys": ["not keyed by a secret word"],
            "client_secret": [MASK, MASK],
        },
        "steps": 7,
    }


@pytest.mark.parametrize(
    "filler",
    [
        "step 120 | loss 2.314 | /mnt/ckpt/global_step1000/mp_rank_00.pt 3f2a9c1b7e4d5a6f8091a2b3c4d5e6f708192a3b ",
        '"password":"x","num_tokens":2048,',  # minified JSON
        "eyJ=",  # made to make JWT-like patterns rescan
        "token:" + " " * 300,  # made to make key/value separators backtrack
        "https%3A%2F%2Fu%3Ap",  # made to make the percent-encoded URL rule scan ahead
        "a",
    ],
)
def test_a_one_megabyte_line_is_linear(filler):
    """A line four times as long costs about four times the CPU (a rule that rescans would cost sixteen): measured
    as this process's CPU time, so other work on the machine does not count (a wall-clock bound of 2 s failed on a
    loaded CI machine)."""

    def cost(size: int) -> tuple[float, str]:
        line = (filler * (size // len(filler) + 1))[:size] + f" export HF_TOKEN={HF}"
        start = time.process_time()
        masked = redact(line)
        return time.process_time() - start, masked

    quarter, _ = cost(2**18)
    whole, masked = cost(2**20)
    assert whole < 8 * quarter + 0.05, (whole, quarter)
    assert HF not in masked and masked.endswith("HF_TOKEN=***")


def test_empty_text():
    assert redact("") == ""


@pytest.mark.parametrize("line", [line for line, _ in SECRETS] + LOOK_ALIKES + PEM_BODY)
def test_masking_twice_changes_nothing(line):
    """The memo answers a masked line with itself: that is only right if masking is idempotent."""
    from bot.redact import _redact_line

    once = _redact_line(line)
    assert _redact_line(once) == once


def test_the_memo_is_bounded_and_gives_the_same_answers():
    from bot import redact as module

    lines = [f"step {i} token=FAKEsecretValue{i:06d}xyz loss 2.0" for i in range(module._MEMO_SIZE * 2)]
    first = [redact(line) for line in lines]
    assert len(module._MEMO) <= module._MEMO_SIZE + 1
    assert [redact(line) for line in lines] == first
    assert all("FAKEsecretValue" not in masked for masked in first)

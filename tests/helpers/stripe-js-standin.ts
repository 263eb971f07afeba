/**
 * The stand-in for Stripe.js that tests/helpers/stripe-peer.ts serves at /v3/: the subset the checkout
 * page uses, shaped like the real thing so the page's code is the code that runs against Stripe.
 *
 * - `Stripe(publishableKey)`; `.elements().create('card')` → `{mount(el), on(), destroy()}`: mount puts
 *   an iframe of the peer (/elements/card) in `el`, as Stripe.js does (its card field lives in a
 *   js.stripe.com frame), so the number is never part of the checkout page.
 * - `.confirmCardPayment(clientSecret)` → `{paymentIntent}` or `{error: {type, code, message}}`: the
 *   page asks the frame over a MessageChannel; the frame posts the number, the publishable key and the
 *   client secret to the peer's POST /v1/payment_intents/{id}/confirm (same origin as the frame),
 *   which then sends the signed webhook to the server.
 */

export const STRIPE_JS_STANDIN = `(function () {
  'use strict';
  var origin = new URL(document.currentScript.src).origin;
  function Stripe(key) {
    if (!(this instanceof Stripe)) return new Stripe(key);
    if (typeof key !== 'string' || key.indexOf('pk_') !== 0) throw new Error('Stripe(): a publishable key (pk_...) is required');
    var frame = null;
    var loaded = null;
    this.elements = function () {
      return {
        create: function (type) {
          if (type !== 'card') throw new Error('stand-in Stripe.js: only the card element');
          return {
            mount: function (target) {
              var host = typeof target === 'string' ? document.querySelector(target) : target;
              frame = document.createElement('iframe');
              frame.src = origin + '/elements/card';
              frame.title = 'Secure card payment input frame';
              frame.setAttribute('allowtransparency', 'true');
              frame.style.cssText = 'border:0;width:100%;height:2.75rem;display:block';
              loaded = new Promise(function (resolve) { frame.addEventListener('load', resolve, { once: true }); });
              host.appendChild(frame);
            },
            on: function () {},
            focus: function () { frame && frame.contentWindow.focus(); },
            destroy: function () { frame && frame.remove(); frame = null; },
          };
        },
      };
    };
    this.confirmCardPayment = function (clientSecret) {
      if (!frame) return Promise.resolve({ error: { type: 'validation_error', message: 'No card element is mounted' } });
      return loaded.then(function () {
        return new Promise(function (resolve) {
          var channel = new MessageChannel();
          channel.port1.onmessage = function (event) { resolve(event.data); };
          frame.contentWindow.postMessage({ type: 'confirm', key: key, clientSecret: clientSecret }, origin, [channel.port2]);
        });
      });
    };
  }
  window.Stripe = Stripe;
})();
`

export const CARD_FRAME_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card</title>
<style>body{margin:0;font:16px system-ui,sans-serif}input{box-sizing:border-box;width:100%;height:2.75rem;padding:0 .75rem;border:1px solid #8a8f98;border-radius:6px;font:inherit}</style>
</head><body>
<input id="cardnumber" name="cardnumber" aria-label="Card number" placeholder="1234 1234 1234 1234" autocomplete="cc-number" inputmode="numeric">
<script>
addEventListener('message', function (event) {
  if (!event.data || event.data.type !== 'confirm' || !event.ports[0]) return;
  var port = event.ports[0];
  var secret = String(event.data.clientSecret);
  var form = new URLSearchParams();
  form.set('key', event.data.key);
  form.set('client_secret', secret);
  form.set('payment_method_data[type]', 'card');
  form.set('payment_method_data[card][number]', document.getElementById('cardnumber').value);
  fetch('/v1/payment_intents/' + encodeURIComponent(secret.split('_secret_')[0]) + '/confirm', { method: 'POST', body: form })
    .then(function (res) { return res.json(); })
    .then(function (body) { port.postMessage(body.error ? { error: body.error } : { paymentIntent: body }); },
      function (err) { port.postMessage({ error: { type: 'api_connection_error', message: String(err) } }); });
});
</script>
</body></html>
`
